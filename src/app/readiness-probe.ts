/**
 * Whether the upstream answers HTTP at all, for `/readyz`. Probes arrive together (a kubelet per node, a
 * load balancer, anyone who can reach the port: 64 concurrent `/readyz` once made 512 upstream requests in
 * 15 s against a hung upstream), so the answer is shared: at most one upstream request at a time, and its
 * result reused for `cacheMillis` after it settles. Every caller during a probe waits for that probe.
 *
 * It stays inside the breaker: while the breaker fails fast, nothing is sent (the upstream is reported
 * unreachable without a request), so readiness never adds load to an upstream the breaker is sparing.
 */
import { request } from 'undici';

/** Options of {@link createReadinessProbe}. */
export interface ReadinessProbeOptions {
  /** Where to send the probe (the reads' base, `STUDIO_URL`). */
  url: string;
  /** Whether the breaker fails fast now: then no probe is sent. */
  isFailingFast: () => boolean;
  /** How long a result is reused after it settles (2 s). */
  cacheMillis?: number;
  /** How long the upstream may take to answer headers and body (1 s each). */
  timeoutMillis?: number;
}

const CACHE_MILLIS = 2_000;
const TIMEOUT_MILLIS = 1_000;

/** Answers whether the upstream is reachable; see the module comment. */
export function createReadinessProbe(options: ReadinessProbeOptions): () => Promise<boolean> {
  const cacheMillis = options.cacheMillis ?? CACHE_MILLIS;
  const timeout = options.timeoutMillis ?? TIMEOUT_MILLIS;
  let last: { at: number; ok: boolean } | undefined;
  let pending: Promise<boolean> | undefined;

  const probe = async (): Promise<boolean> => {
    try {
      const response = await request(options.url, {
        method: 'GET',
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      await response.body.dump();
      return true;
    } catch {
      return false;
    }
  };

  return () => {
    if (options.isFailingFast()) return Promise.resolve(false);
    if (last !== undefined && Date.now() - last.at < cacheMillis) return Promise.resolve(last.ok);
    pending ??= probe().then((ok) => {
      // From when it settled: a hung upstream is asked again only `cacheMillis` after its last timeout.
      last = { at: Date.now(), ok };
      pending = undefined;
      return ok;
    });
    return pending;
  };
}
