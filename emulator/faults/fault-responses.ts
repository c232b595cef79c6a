import type { ServerResponse } from 'node:http';
import type { FaultMode } from '../emulator-options.ts';
import type { EmulatorCharset } from '../http/charset.ts';
import { renderReply, type RenderedReply, type Reply, type WrapperStyle } from '../http/reply.ts';

/** Faults that distort a real answer (the operation runs); the others replace it (the operation does not run). */
export type DistortingFault = Extract<FaultMode, 'wrongCallback' | 'truncated'>;

/** Whether the fault needs the operation's real answer. */
export function isDistortingFault(mode: FaultMode): mode is DistortingFault {
  return mode === 'wrongCallback' || mode === 'truncated';
}

/** Size of the `oversized` answer: far beyond any sane client's body limit. */
const OVERSIZED_BYTES = 20 * 1024 * 1024;
const FILLER_RECORD = `{"_id":"000000000000000000000000","filler":"${'x'.repeat(1000)}"},`;
const OVERSIZED_CHUNK = Buffer.from(FILLER_RECORD.repeat(64));

const JAVASCRIPT = 'application/javascript; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

const ERROR_500_PAGE =
  '<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1>' +
  '<p>java.lang.NullPointerException</p></body></html>';
const MAINTENANCE_PAGE =
  '<!DOCTYPE html><html><head><title>Service Unavailable</title></head>' +
  '<body><h1>We are down for maintenance</h1><p>Please try again later.</p></body></html>';

function send(response: ServerResponse, statusCode: number, contentType: string, body: string): void {
  response.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** Streams a well-formed-looking JSONP answer of about 20 MB, honouring back-pressure, until the client leaves. */
function streamOversized(response: ServerResponse, callback: string): void {
  response.writeHead(200, { 'content-type': JAVASCRIPT });
  response.write(`${callback}({"status":"success","totalCount":20000,"data":[`);
  let sent = 0;
  const pump = (): void => {
    while (!response.destroyed) {
      if (sent >= OVERSIZED_BYTES) {
        response.end('{"_id":"000000000000000000000000"}]});');
        return;
      }
      sent += OVERSIZED_CHUNK.length;
      if (!response.write(OVERSIZED_CHUNK)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

/** Answers a call with a replacing fault. `hang` answers nothing: the connection stays open until closed. */
export function sendFault(
  response: ServerResponse,
  mode: Exclude<FaultMode, DistortingFault>,
  callback: string,
): void {
  switch (mode) {
    case 'error500':
      send(response, 500, HTML, ERROR_500_PAGE);
      return;
    case 'hang':
      return;
    case 'reset': {
      // Promise a full body, send part of it, then drop the connection.
      const partial = `${callback}({"status":"success","data":[{"_id":"`;
      response.writeHead(200, { 'content-type': JAVASCRIPT, 'content-length': 4096 });
      response.write(partial, () => response.socket?.destroy());
      return;
    }
    case 'garbage':
      send(response, 200, JAVASCRIPT, '\u0000\u00ff<<garbage>> this is not JSONP }{ %%%');
      return;
    case 'oversized':
      streamOversized(response, callback);
      return;
    case 'html':
      send(response, 200, HTML, MAINTENANCE_PAGE);
      return;
  }
}

/** Distorts a real answer: wrapped in another function name, or cut in the middle. */
export function distortReply(
  reply: Reply,
  mode: DistortingFault,
  style: WrapperStyle,
  charset: EmulatorCharset,
): RenderedReply {
  if (mode === 'truncated') {
    const rendered = renderReply(reply, style, charset);
    return { ...rendered, body: rendered.body.slice(0, Math.floor(rendered.body.length / 2)) };
  }
  const other = reply.callback === undefined ? 'unexpectedCallback' : `${reply.callback.slice(0, 60)}_bad`;
  return renderReply({ ...reply, callback: other }, style, charset);
}
