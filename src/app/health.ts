/** Readiness: whether the upstream answers HTTP at all (any status). Cached briefly so probes stay cheap. */
import { request } from 'undici';

/** Returns a probe that resolves `true` when `url` answered within a second, checked at most every 2 s. */
export function createReadinessProbe(url: string, cacheMillis = 2_000): () => Promise<boolean> {
  let last: { at: number; ok: boolean } | undefined;
  return async () => {
    const now = Date.now();
    if (last && now - last.at < cacheMillis) return last.ok;
    let ok: boolean;
    try {
      const response = await request(url, { method: 'GET', headersTimeout: 1_000, bodyTimeout: 1_000 });
      await response.body.dump();
      ok = true;
    } catch {
      ok = false;
    }
    last = { at: now, ok };
    return ok;
  };
}
