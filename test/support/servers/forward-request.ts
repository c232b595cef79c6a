/** Forwarding one request to the real target, as every test proxy does for what it lets through. */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

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
