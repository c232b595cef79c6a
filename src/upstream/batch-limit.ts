/**
 * A small concurrency cap for the single reads of `exact` mode, so one request that touches hundreds of
 * ids does not open hundreds of upstream calls at once.
 */

/** Runs tasks with at most a fixed number in flight; the others wait in arrival order. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Creates a {@link Limiter} allowing `maxConcurrent` (at least 1) tasks at once. */
export function createLimiter(maxConcurrent: number): Limiter {
  const cap = Math.max(1, Math.floor(maxConcurrent));
  let active = 0;
  const waiting: (() => void)[] = [];

  function release(): void {
    const next = waiting.shift();
    if (next === undefined) {
      active -= 1;
    } else {
      // The slot passes straight to the next task: `active` stays the same.
      next();
    }
  }

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < cap) {
        active += 1;
      } else {
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
