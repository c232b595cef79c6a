/**
 * What the upstream's state is, for `/readyz`: `ok`, `slow` (it answers, late), `unreachable` (no answer
 * within the probe's deadline, or no connection) or `unknown` (the first probe has not settled).
 *
 * Probes arrive together (a kubelet per node, a load balancer, anyone who can reach the port: 64 concurrent
 * `/readyz` once made 512 upstream requests in 15 s against a hung upstream), so the answer is shared: at
 * most one upstream request at a time, and its result reused for `cacheMillis` after it settles.
 *
 * `/readyz` never waits for a probe longer than `answerWithinMillis`: a kubelet gives it 2 s, and an
 * upstream that answers in 1.5 s (slow, not down) once made every readiness check time out. A probe still
 * under way then answers what is known: the last state, `slow` once the probe has waited longer than an
 * answer that counts as slow, `unknown` before any probe settled.
 *
 * It stays inside the breaker: while the breaker fails fast, nothing is sent (the route says `circuit
 * open`), so readiness never adds load to an upstream the breaker is sparing.
 */
import { request } from 'undici';

/** The upstream's state as `/readyz` reports it. */
export type UpstreamReadiness = 'ok' | 'slow' | 'unreachable' | 'unknown';

/** Options of {@link createReadinessProbe}. */
export interface ReadinessProbeOptions {
  /** Where to send the probe (the reads' base, `STUDIO_URL`). */
  url: string;
  /** Whether the breaker fails fast now: then no probe is sent. */
  isFailingFast: () => boolean;
  /** How long a result is reused after it settles (2 s). */
  cacheMillis?: number;
  /** How long the upstream may take to answer headers and body before it is unreachable (5 s each). */
  timeoutMillis?: number;
  /** An answer that took longer than this is `slow` (1 s). */
  slowMillis?: number;
  /** The longest `/readyz` waits for a probe under way (500 ms). */
  answerWithinMillis?: number;
}

const CACHE_MILLIS = 2_000;
const TIMEOUT_MILLIS = 5_000;
const SLOW_MILLIS = 1_000;
const ANSWER_WITHIN_MILLIS = 500;

/** Answers the upstream's state; see the module comment. */
export function createReadinessProbe(options: ReadinessProbeOptions): () => Promise<UpstreamReadiness> {
  const cacheMillis = options.cacheMillis ?? CACHE_MILLIS;
  const timeout = options.timeoutMillis ?? TIMEOUT_MILLIS;
  const slowMillis = options.slowMillis ?? SLOW_MILLIS;
  const answerWithin = options.answerWithinMillis ?? ANSWER_WITHIN_MILLIS;
  let last: { at: number; state: UpstreamReadiness } | undefined;
  let pending: { startedAt: number; settled: Promise<UpstreamReadiness> } | undefined;

  const probe = async (startedAt: number): Promise<UpstreamReadiness> => {
    try {
      const response = await request(options.url, {
        method: 'GET',
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      await response.body.dump();
      return Date.now() - startedAt > slowMillis ? 'slow' : 'ok';
    } catch {
      return 'unreachable';
    }
  };

  /** What is known while a probe is under way. */
  const meanwhile = (startedAt: number): UpstreamReadiness => {
    const waited = Date.now() - startedAt;
    // No answer yet is no sign of life: an upstream found unreachable stays so until one arrives.
    if (last?.state === 'unreachable') return 'unreachable';
    return waited > slowMillis ? 'slow' : (last?.state ?? 'unknown');
  };

  return async () => {
    if (options.isFailingFast()) return 'unreachable';
    if (last !== undefined && Date.now() - last.at < cacheMillis) return last.state;
    if (pending === undefined) {
      const startedAt = Date.now();
      const settled = probe(startedAt).then((state) => {
        // From when it settled: a hung upstream is asked again only `cacheMillis` after its last timeout.
        last = { at: Date.now(), state };
        pending = undefined;
        return state;
      });
      pending = { startedAt, settled };
    }
    const { startedAt, settled } = pending;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<UpstreamReadiness>((resolve) => {
      timer = setTimeout(() => {
        resolve(meanwhile(startedAt));
      }, answerWithin);
    });
    try {
      return await Promise.race([settled, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
