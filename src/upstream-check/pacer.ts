/**
 * The check's pace: requests start at most `requestsPerSecond` apart, so a check run against a production
 * upstream costs it no more than a person clicking around (default {@link DEFAULT_REQUESTS_PER_SECOND}).
 */

/** The default pace: a few requests per second. */
export const DEFAULT_REQUESTS_PER_SECOND = 4;
/** The slowest `--rate` accepted. */
export const MIN_REQUESTS_PER_SECOND = 0.2;
/** The fastest `--rate` accepted (the check's own tests run at it against a local emulator). */
export const MAX_REQUESTS_PER_SECOND = 50;

/** Waits until the next request may start; counts the requests. */
export interface Pacer {
  pace(): Promise<void>;
  /** Requests started so far. */
  count(): number;
}

/** A pacer for `requestsPerSecond` (within the bounds above; the caller validates). */
export function createPacer(requestsPerSecond: number): Pacer {
  const intervalMillis = 1000 / requestsPerSecond;
  let next = 0;
  let started = 0;
  return {
    async pace() {
      const now = performance.now();
      const at = Math.max(now, next);
      next = at + intervalMillis;
      started += 1;
      if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
    },
    count: () => started,
  };
}
