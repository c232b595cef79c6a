/**
 * A loopback proxy in front of the emulator that answers some users' reads with a large, slow, valid answer:
 * what reading back pages of large stored values looks like to the gateway. Every other request is passed
 * through unchanged. The large answer is JSONP in the callback the gateway sent, chunked (no length
 * announced, so the gateway can only count it as it arrives), `bytes` long, written in 64 KiB chunks
 * `everyMillis` apart so that many such answers are in flight at once.
 */
import { createServer } from 'node:http';
import { forwardRequest } from './forward-request.ts';
import { listenOnLoopback } from './listen-on-loopback.ts';

/** Options of {@link startLargeAnswerProxy}. */
export interface LargeAnswerProxyOptions {
  /** The users (`username` query parameter) whose reads get large answers. */
  usernames: readonly string[];
  /** Size of each large answer. */
  bytes: number;
  /** Pause between two 64 KiB chunks. */
  everyMillis: number;
  /**
   * What pads the answer: one long string (default: cheap to parse), or small objects (`{"a":1}`, 8 bytes
   * each: what pages of many records cost `JSON.parse`). Either is beside `data`, which stays empty.
   */
  padWith?: 'string' | 'objects';
}

/** A running proxy. */
export interface LargeAnswerProxy {
  url: string;
  /** Large answers started so far. */
  largeAnswers(): number;
  close(): Promise<void>;
}

const CHUNK_BYTES = 64 * 1024;
/** One padding object (8 bytes with its comma). */
const OBJECT = '{"a":1}';

/** Starts the proxy in front of `targetUrl`. */
export async function startLargeAnswerProxy(
  targetUrl: string,
  options: LargeAnswerProxyOptions,
): Promise<LargeAnswerProxy> {
  const target = new URL(targetUrl);
  const timers = new Set<NodeJS.Timeout>();
  let started = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (
      !url.pathname.includes('/jsonp/getAll') ||
      !options.usernames.includes(url.searchParams.get('username') ?? '')
    ) {
      forwardRequest(target, req, res);
      return;
    }
    started += 1;
    const objects = options.padWith === 'objects';
    const callback = url.searchParams.get('callback') ?? 'cb';
    const head = `${callback}({"status":"success","totalCount":0,"data":[],"pad":${objects ? '[' : '"'}`;
    const tail = objects ? `${OBJECT}]});` : '"});';
    let left = options.bytes - head.length - tail.length;
    res.writeHead(200, { 'content-type': 'application/javascript' });
    res.write(head);
    const padding = objects ? `${OBJECT},`.repeat(CHUNK_BYTES / 8) : 'x'.repeat(CHUNK_BYTES);
    const timer = setInterval(() => {
      if (left <= 0) {
        clearInterval(timer);
        timers.delete(timer);
        res.end(tail);
        return;
      }
      // Whole objects only: a cut one would not be JSON.
      const size = objects
        ? Math.max(8, Math.floor(Math.min(left, CHUNK_BYTES) / 8) * 8)
        : Math.min(left, CHUNK_BYTES);
      left -= size;
      res.write(size === CHUNK_BYTES ? padding : padding.slice(0, size));
    }, options.everyMillis);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    largeAnswers: () => started,
    async close() {
      for (const timer of timers) clearInterval(timer);
      await listening.close();
    },
  };
}
