/**
 * A loopback proxy in front of the emulator that answers a JSON login (`POST /v1/user/login`) of any
 * username outside `knownUsernames` with HTTP 500 and Tomcat's HTML error page, as a Java service does for
 * input it chokes on, and passes everything else through. It counts the 500s it answered. With
 * `chokeUrlsContaining`, any other request whose URL contains that text is answered 500 too (a real user's
 * call the upstream chokes on), counted apart.
 */
import { createServer, request as httpRequest } from 'node:http';
import { forwardRequest } from './forward-request.ts';
import { listenOnLoopback } from './listen-on-loopback.ts';

/** A running proxy. */
export interface ChokingLoginProxy {
  url: string;
  /** Logins answered 500 so far. */
  choked(): number;
  /** Other requests answered 500 so far (see `chokeUrlsContaining`). */
  chokedOthers(): number;
  close(): Promise<void>;
}

const TOMCAT_500 =
  '<!doctype html><html lang="en"><head><title>HTTP Status 500 – Internal Server Error</title></head>' +
  '<body><h1>HTTP Status 500 – Internal Server Error</h1></body></html>';

/** Starts the proxy in front of `targetUrl`. */
export async function startChokingLoginProxy(
  targetUrl: string,
  knownUsernames: readonly string[],
  chokeUrlsContaining?: string,
): Promise<ChokingLoginProxy> {
  const target = new URL(targetUrl);
  const known = new Set(knownUsernames);
  let choked = 0;
  let chokedOthers = 0;
  const server = createServer((req, res) => {
    if (chokeUrlsContaining !== undefined && (req.url ?? '').includes(chokeUrlsContaining)) {
      chokedOthers += 1;
      res.writeHead(500, { 'content-type': 'text/html;charset=utf-8' }).end(TOMCAT_500);
      return;
    }
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/user/login')) {
      forwardRequest(target, req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let username: unknown;
      try {
        username = (JSON.parse(body.toString('utf8')) as { username?: unknown }).username;
      } catch {
        username = undefined;
      }
      if (typeof username !== 'string' || !known.has(username)) {
        choked += 1;
        res.writeHead(500, { 'content-type': 'text/html;charset=utf-8' }).end(TOMCAT_500);
        return;
      }
      // The body was read here, so it is sent on by hand rather than piped.
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: 'POST', path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    choked: () => choked,
    chokedOthers: () => chokedOthers,
    close: () => listening.close(),
  };
}
