/**
 * A servlet container's header limit (Tomcat's `maxHttpHeaderSize`, 8 KiB by default; Jetty's
 * `requestHeaderSize`): the request line and the headers together, refused with 414 before any servlet runs.
 * What `EMULATOR_MAX_URL_BYTES` sets, so that a team (and `npm run upstream:check`'s tests) can meet a small
 * limit locally.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The bytes of the request line and headers as they came on the wire (`GET /x HTTP/1.1\r\n`, `k: v\r\n`…). */
export function headerBytes(request: IncomingMessage): number {
  let bytes = Buffer.byteLength(
    `${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}\r\n`,
  );
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    bytes += Buffer.byteLength(`${raw[i] ?? ''}: ${raw[i + 1] ?? ''}\r\n`);
  }
  return bytes + 2;
}

/** Whether the request line and headers are longer than `maxBytes`. */
export function isOverHeaderLimit(request: IncomingMessage, maxBytes: number): boolean {
  return headerBytes(request) > maxBytes;
}

/** The container's answer: 414 with a small HTML page, never JSONP, and the connection closed. */
export function sendUriTooLong(response: ServerResponse): void {
  const body = '<!doctype html><title>414 URI Too Long</title><h1>HTTP Status 414 – URI Too Long</h1>';
  response.writeHead(414, {
    'content-type': 'text/html;charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
}
