/**
 * A loopback proxy in front of the emulator that refuses what a servlet container refuses before the
 * application sees it, as Tomcat does with its defaults: a request line and headers over 8 KiB (431, here
 * Node's own `maxHeaderSize`), an encoded slash, backslash or NUL in the path (400), an empty path segment
 * such as `/metadata/get//` (404). Everything else passes through unchanged. It records every request it
 * refused, so a test can assert that the gateway never sent one.
 */
import { createServer } from 'node:http';
import { listenOnLoopback } from './listen-on-loopback.ts';
import { forwardRequest } from './forward-request.ts';

/** A running proxy. */
export interface ServletProxy {
  url: string;
  /** Requests answered 4xx by the proxy itself (the gateway should have refused them). */
  refused: { status: number; path: string }[];
  /** Requests passed to the emulator. */
  passed(): number;
  close(): Promise<void>;
}

const MAX_HEADER_BYTES = 8_192;

/** Starts the proxy in front of `targetUrl`. */
export async function startServletProxy(targetUrl: string): Promise<ServletProxy> {
  const target = new URL(targetUrl);
  const refused: ServletProxy['refused'] = [];
  let passed = 0;
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const status = /%2f|%5c|%00/i.test(path) ? 400 : path.includes('//') ? 404 : undefined;
    if (status !== undefined) {
      refused.push({ status, path: path.slice(0, 200) });
      res.writeHead(status, { 'content-type': 'text/html' }).end('<html><body>refused</body></html>');
      return;
    }
    passed += 1;
    forwardRequest(target, req, res, url);
  });
  // Node answers 431 itself for an over-long request head; count those too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'HPE_HEADER_OVERFLOW') refused.push({ status: 431, path: '(request head too large)' });
    socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\n\r\n');
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    refused,
    passed: () => passed,
    async close() {
      await listening.close();
    },
  };
}
