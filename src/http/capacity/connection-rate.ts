/**
 * Each address's share of new connections (`MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND`): a token bucket
 * per address, holding at most `burst` tokens (`MAX_CONNECTIONS_PER_ADDRESS`: a client may open its whole
 * share at once) and refilled at `perSecond`. A connection takes a token when the gateway starts reading it
 * (`connection-limits.ts` makes the others wait).
 *
 * Accepting a connection, parsing its request and closing it cost the gateway about 200 µs
 * (`npm run bench:churn`); nothing bounded how many an address could make it do: 17 addresses reopening
 * their slow bodies every 0.8 s made each replica accept a thousand connections a second.
 *
 * Only addresses whose bucket is not full are kept: one is full again `burst / perSecond` seconds after its
 * last token was taken, so older entries are dropped in order of use, and at most `maxAddresses` are kept
 * (the oldest dropped first: it may open a burst again, as a new address could).
 */

/** Options of {@link createConnectionRate}. */
export interface ConnectionRateOptions {
  perSecond: number;
  burst: number;
  maxAddresses: number;
  /** The clock, in milliseconds (tests drive it). Default `performance.now`. */
  now?: () => number;
}

/** See the module comment. */
export interface ConnectionRate {
  /** Takes a token of `address`: 0 when it had one, else the milliseconds until it will. */
  take(address: string): number;
  /** The milliseconds until `address` has a token (0: now), taking none. */
  waitOf(address: string): number;
  /** Addresses kept (buckets not full). */
  size(): number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Creates the buckets; see the module comment. */
export function createConnectionRate(options: ConnectionRateOptions): ConnectionRate {
  const { perSecond, burst, maxAddresses } = options;
  const now = options.now ?? (() => performance.now());
  const perMilli = perSecond / 1_000;
  const fullAfterMillis = burst / perMilli;
  // Insertion order is the order of last use: a bucket is moved to the end when a token is taken.
  const buckets = new Map<string, Bucket>();

  const forgetFull = (at: number): void => {
    for (const [address, bucket] of buckets) {
      if (at - bucket.at < fullAfterMillis && buckets.size <= maxAddresses) return;
      buckets.delete(address);
    }
  };

  const tokensOf = (address: string, at: number): number => {
    const bucket = buckets.get(address);
    if (bucket === undefined) return burst;
    return Math.min(burst, bucket.tokens + (at - bucket.at) * perMilli);
  };

  return {
    take(address) {
      const at = now();
      const tokens = tokensOf(address, at);
      if (tokens < 1) return Math.ceil((1 - tokens) / perMilli);
      buckets.delete(address);
      buckets.set(address, { tokens: tokens - 1, at });
      forgetFull(at);
      return 0;
    },
    waitOf(address) {
      const tokens = tokensOf(address, now());
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMilli);
    },
    size: () => buckets.size,
  };
}
