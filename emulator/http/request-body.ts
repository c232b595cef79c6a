import type { IncomingMessage } from 'node:http';
import type { BodyEncoding } from './charset.ts';

/** Largest request body an operation accepts (docs/design.md: oversized bodies are a plain error, not a crash). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many bytes the emulator stops draining an oversized body and drops the connection after answering. */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/** A request body: its text, or `undefined` when it was larger than the cap. */
export interface BodyResult {
  text: string | undefined;
  /** The body was not read to its end: the answer must close the connection. */
  abandoned: boolean;
}

/**
 * Reads a request body up to `maxBytes`, decoded in `encoding` (bad UTF-8 as U+FFFD, as Java's decoder reads it). A larger body is drained and discarded, so that the client
 * (still sending) gets the answer rather than a broken pipe; a huge one is abandoned. Rejects when the
 * client goes away.
 */
export function readBody(
  request: IncomingMessage,
  maxBytes = MAX_BODY_BYTES,
  encoding: BodyEncoding = 'utf8',
): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (result: BodyResult): void => {
      done = true;
      resolve(result);
    };
    const tooLarge = (): boolean => received > maxBytes;
    request.on('data', (chunk: Buffer) => {
      if (done) return;
      received += chunk.length;
      if (received > MAX_DRAIN_BYTES) {
        request.pause();
        finish({ text: undefined, abandoned: true });
      } else if (tooLarge()) chunks.length = 0;
      else chunks.push(chunk);
    });
    request.on('end', () => {
      if (!done)
        finish({
          text: tooLarge() ? undefined : Buffer.concat(chunks, received).toString(encoding),
          abandoned: false,
        });
    });
    request.on('close', () => {
      if (!done) {
        done = true;
        reject(new Error('the client closed the request before its body ended'));
      }
    });
  });
}
