/** Forwarding one request to the real target, as every test proxy does for what it lets through. */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, type Listening } from './listen-on-loopback.ts';

/**
 * Sends `req` on to `target` (path `path`, by default the request's own) and pipes the answer back, status
 * and headers included. A failed forward cuts the client's connection, as a proxy that lost its upstream.
 */
export function forwardRequest(
  target: URL,
  req: IncomingMessage,
  res: ServerResponse,
  path: string | undefined = req.url,
): void {
  const upstream = httpRequest(
    { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/** A proxy on a loopback port that shows each request to `note` (headers and URL; never its body), then forwards it. */
export function startNotingProxy(target: string, note: (req: IncomingMessage) => void): Promise<Listening> {
  const upstream = new URL(target);
  return listenOnLoopback(
    createServer((req, res) => {
      note(req);
      forwardRequest(upstream, req, res);
    }),
  );
}
