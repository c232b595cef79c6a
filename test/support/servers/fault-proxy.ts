/**
 * A loopback proxy in front of the emulator that adds the faults the emulator itself does not make:
 * `hang` (the request is read, nothing is ever answered: the headers deadline), `stall` (headers and the
 * start of a body, then silence: the body deadline) and `drip` (a 200 whose JSONP body trickles in a byte
 * at a time, forever: every chunk arrives within the body timeout, only the whole-call deadline ends it).
 * With no fault set, every request is passed through unchanged.
 */
import { createServer } from 'node:http';
import { listenOnLoopback } from './listen-on-loopback.ts';
import { forwardRequest } from './forward-request.ts';

/** The proxy's own faults. */
export type ProxyFault = 'hang' | 'stall' | 'drip' | undefined;

/** A running proxy. */
export interface FaultProxy {
  url: string;
  setFault(fault: ProxyFault): void;
  /** How many requests have arrived so far, faulted or passed through: a test waits on it, not on a clock. */
  received(): number;
  close(): Promise<void>;
}

/** Starts the proxy in front of `targetUrl`. */
export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  let fault: ProxyFault;
  let received = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    received++;
    if (fault === 'hang') return;
    if (fault === 'stall' || fault === 'drip') {
      const callback = new URL(req.url ?? '/', 'http://x').searchParams.get('callback') ?? 'cb';
      res.writeHead(200, { 'content-type': 'application/javascript' });
      res.write(`${callback}({"status":"success","data":[`);
      if (fault === 'stall') return;
      const timer = setInterval(() => res.write(' '), 50);
      timers.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
    forwardRequest(target, req, res);
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    setFault(next) {
      fault = next;
    },
    received: () => received,
    async close() {
      for (const timer of timers) clearInterval(timer);
      await listening.close();
    },
  };
}
