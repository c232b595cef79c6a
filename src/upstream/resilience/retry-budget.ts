/**
 * A retry budget: retries may add at most a fixed share of the successful calls seen recently. Per-call retry
 * limits alone multiply load on an upstream that is already failing (every caller retries twice, so a sick
 * upstream gets three times the traffic); a budget keeps the extra load proportional to what is working.
 * See "Handling Overload" in Google's SRE book, and Finagle's `RetryBudget`.
 */

/** Options of {@link createRetryBudget}. */
export interface RetryBudgetOptions {
  /** Retries allowed per success in the window (`UPSTREAM_RETRY_BUDGET_PERCENT` / 100). */
  ratio: number;
  /** Retries allowed in the window whatever the successes, so a cold start can still retry. Default `0`. */
  minRetriesPerWindow?: number;
  /** Length of the sliding window. Default `10_000`. */
  windowMillis?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** See {@link createRetryBudget}. */
export interface RetryBudget {
  /** Counts a successful upstream call. */
  recordSuccess(): void;
  /** Answers whether one more retry fits in the budget, and spends it when it does. */
  tryRetry(): boolean;
  /** Successes and retries in the current window (metrics, tests). */
  snapshot(): { successes: number; retries: number };
}

const BUCKETS = 10;

/** Creates a budget over a sliding window of ten buckets. */
export function createRetryBudget(options: RetryBudgetOptions): RetryBudget {
  const { ratio } = options;
  const minRetries = options.minRetriesPerWindow ?? 0;
  const bucketMillis = (options.windowMillis ?? 10_000) / BUCKETS;
  const now = options.now ?? Date.now;
  const successes = new Array<number>(BUCKETS).fill(0);
  const retries = new Array<number>(BUCKETS).fill(0);
  let currentBucket = Math.floor(now() / bucketMillis);

  /** Moves the window to the present, emptying the buckets that fell out of it; answers the current slot. */
  function slot(): number {
    const bucket = Math.floor(now() / bucketMillis);
    const stale = Math.min(bucket - currentBucket, BUCKETS);
    for (let i = 1; i <= stale; i++) {
      const index = (currentBucket + i) % BUCKETS;
      successes[index] = 0;
      retries[index] = 0;
    }
    if (bucket > currentBucket) currentBucket = bucket;
    return currentBucket % BUCKETS;
  }

  const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

  return {
    recordSuccess() {
      const index = slot();
      successes[index] = (successes[index] ?? 0) + 1;
    },
    tryRetry() {
      const index = slot();
      const allowed = Math.floor(sum(successes) * ratio) + minRetries;
      if (sum(retries) >= allowed) return false;
      retries[index] = (retries[index] ?? 0) + 1;
      return true;
    },
    snapshot() {
      slot();
      return { successes: sum(successes), retries: sum(retries) };
    },
  };
}
