/**
 * Counting failed logins (rate-limiter-flexible) so that an attacker cannot aim a lock-out at a victim
 * (OWASP authentication cheat sheet, "device cookies"):
 *
 * - a **known device** (a client that sent a valid device token of this account) has its own count of
 *   consecutive failures: `maxConsecutiveFailures` in a row block that device for `blockSeconds`. Nothing
 *   else counts against it, so failures it did not make never lock it out.
 * - every **other client** is counted per account + client IP (`maxConsecutiveFailures` in a row block that
 *   pair), per account from all addresses (`maxFailuresPerUser` failures per `blockSeconds` window, then every
 *   unknown client of that account waits `blockSeconds`: the guess budget of a botnet), and per IP by
 *   *distinct* accounts that failed from it in a day (`maxFailuresPerIp`, blocking unknown clients there
 *   for a day), so one person's typing behind an office proxy blocks nobody else.
 *
 * Accounts are counter keys from `src/auth/account-links.ts` (hashed; a username and its linked mobile number
 * share one). Counters live in memory, or in Redis so that every replica shares them; while Redis fails an
 * in-memory insurance limiter counts instead. Blocks are also kept in this process, so a block started during
 * an outage outlives the outage here; the counts made during the outage are not carried into Redis.
 *
 * In total, the counters this process makes are at most `maxTrackedCounters` (`counter-ledger.ts` counts
 * them), because a caller with many addresses (IPv6) would otherwise add a few per address for a day. When
 * the table is full, nothing is dropped: counters that exist keep counting and their blocks hold (a
 * victim's attacker stays blocked), a known device's counter is still made (a device takes a correct
 * password), and a failure that would need a new counter of an unknown client is counted instead in one of
 * the fixed counters of `overflow-slot.ts` chosen by the account, which after `maxFailuresPerUser` failures
 * block the unknown clients of that slot's accounts for `blockSeconds`: guessing stays bounded per
 * account (a shared slot only makes it stricter) while the flood adds no memory. Likewise an address
 * without an `ip` counter counts its failures in a slot chosen by its network (IPv6 by /64), blocked after
 * `maxFailuresPerIp` for a day, so spraying accounts from one host stays bounded. Slots are keyed by a
 * secret of this process, so an attacker cannot pick a victim's slot-mates. A login with the right password
 * needs no new counter, and a counter it deletes leaves the ledger.
 */
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { clientNetwork } from '../http/capacity/client-network.ts';
import { createCounterLedger } from './counter-ledger.ts';
import { slotOf } from './overflow-slot.ts';

/** Which counter blocked. */
export type LoginLimit = 'device' | 'user_ip' | 'user' | 'ip' | 'overflow' | 'overflow_ip';

/** Options of {@link createLoginLimiter}; each names its setting. */
export interface LoginLimiterOptions {
  /** `LOGIN_MAX_CONSECUTIVE_FAILURES`: failures in a row per account + IP, or per known device. */
  maxConsecutiveFailures: number;
  /** `LOGIN_BLOCK_SECONDS`: length of a block, and of the per-account window. */
  blockSeconds: number;
  /** `LOGIN_MAX_FAILURES_PER_USER`: failures of unknown clients per account per window. */
  maxFailuresPerUser: number;
  /** `LOGIN_MAX_FAILURES_PER_IP`: distinct accounts failing from one IP in a day. */
  maxFailuresPerIp: number;
  /** `LOGIN_MAX_TRACKED_COUNTERS`: counters this process makes, all kinds together. */
  maxTrackedCounters: number;
  /** Shared store (`REDIS_URL`); counters stay in this process without it. */
  redis?: Redis | undefined;
  /** Prefix of the store's keys. Default `login`. */
  keyPrefix?: string;
  /** Called when a counter starts a block (metrics). */
  onBlock?: (limit: LoginLimit) => void;
}

/** One login attempt, as counted. */
export interface LoginAttempt {
  /** The account's counter key (hashed). */
  account: string;
  clientIp: string;
  /** Set when the client sent a valid device token of this account. */
  deviceId?: string | undefined;
}

/** See {@link createLoginLimiter}. */
export interface LoginLimiter {
  /** Seconds the caller must wait before this login may be tried, or 0 when it may be tried now. */
  retryAfterSeconds(attempt: LoginAttempt): Promise<number>;
  /** Counts a refused login; answers the seconds of a block it started, or 0. */
  recordFailure(attempt: LoginAttempt): Promise<number>;
  /** Clears the consecutive count (device, or account + IP) after a successful login. */
  recordSuccess(attempt: LoginAttempt): Promise<void>;
  /** Counters this process made that may still be alive (at most `maxTrackedCounters`, plus devices). */
  trackedCounters(): number;
}

const DAY_SECONDS = 24 * 3600;

interface Counter {
  limit: LoginLimit;
  limiter: RateLimiterAbstract;
  /** This process's copy of the counter's blocks (only with Redis): survives a Redis outage's end. */
  localBlocks: RateLimiterMemory | undefined;
  points: number;
  windowSeconds: number;
  blockSeconds: number;
  /** `undefined` when the counter does not apply to the attempt. */
  key(attempt: LoginAttempt): string | undefined;
}

/** Creates the limiter. */
export function createLoginLimiter(options: LoginLimiterOptions): LoginLimiter {
  const prefix = options.keyPrefix ?? 'login';
  const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const settings = { keyPrefix: `${prefix}_${name}`, points, duration };
    if (options.redis === undefined) return new RateLimiterMemory(settings);
    return new RateLimiterRedis({
      ...settings,
      storeClient: options.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(settings),
    });
  };
  const counter = (
    limit: LoginLimit,
    points: number,
    windowSeconds: number,
    blockSeconds: number,
    key: Counter['key'],
  ): Counter => ({
    limit,
    limiter: make(limit, points, windowSeconds),
    localBlocks:
      options.redis === undefined
        ? undefined
        : new RateLimiterMemory({ keyPrefix: `${prefix}_${limit}_local`, points, duration: blockSeconds }),
    points,
    windowSeconds,
    blockSeconds,
    key,
  });
  const known = (a: LoginAttempt) => a.deviceId !== undefined;
  const { maxConsecutiveFailures: consecutive, blockSeconds } = options;
  const ipCounter = counter('ip', options.maxFailuresPerIp, DAY_SECONDS, DAY_SECONDS, (a) =>
    known(a) ? undefined : a.clientIp,
  );
  const counters: Counter[] = [
    // Consecutive counts live as long as a block would; a success deletes them.
    counter('device', consecutive, blockSeconds, blockSeconds, (a) =>
      known(a) ? `${a.account}_${a.deviceId ?? ''}` : undefined,
    ),
    counter('user_ip', consecutive, blockSeconds, blockSeconds, (a) =>
      known(a) ? undefined : `${a.account}_${a.clientIp}`,
    ),
    counter('user', options.maxFailuresPerUser, blockSeconds, blockSeconds, (a) =>
      known(a) ? undefined : a.account,
    ),
    ipCounter,
    // Counts only while the table is full (`recordFailure`); its blocks are asked like every other.
    counter('overflow', options.maxFailuresPerUser, blockSeconds, blockSeconds, (a) =>
      known(a) ? undefined : `slot${slotOf(a.account)}`,
    ),
    // The per-IP limit while the table is full, for addresses without an `ip` counter: by network (an IPv6
    // host owns a /64), in a keyed slot, counting failures (distinct accounts would need new entries).
    counter('overflow_ip', options.maxFailuresPerIp, DAY_SECONDS, DAY_SECONDS, (a) =>
      known(a) ? undefined : `net${slotOf(`net\0${clientNetwork(a.clientIp)}`)}`,
    ),
  ];
  const overflowOnly = new Set<LoginLimit>(['overflow', 'overflow_ip']);
  const ledger = createCounterLedger();
  const maxTracked = options.maxTrackedCounters;
  // Which accounts already failed from an IP today: the `ip` counter counts each account once.
  const seenOnIp = make('ip_seen', 1, DAY_SECONDS);

  async function waitOf(c: Counter, key: string): Promise<number> {
    const states = await Promise.all([c.limiter.get(key), c.localBlocks?.get(key) ?? null]);
    let wait = 0;
    for (const state of states) {
      // `block()` stores one point more than the limit: that, and only that, is a block.
      if (state !== null && state.consumedPoints > c.points) {
        wait = Math.max(wait, Math.ceil(state.msBeforeNext / 1000));
      }
    }
    return wait;
  }

  async function fail(c: Counter, key: string, attempt: LoginAttempt, full = false): Promise<number> {
    const tracked = !overflowOnly.has(c.limit);
    if (c.limit === 'ip' && full) {
      // Full: an existing `ip` counter keeps counting, but without a new "seen" entry per account (a
      // repeated account may count twice: stricter only while full).
      if ((await seenOnIp.get(`${attempt.clientIp}_${attempt.account}`)) !== null) return 0;
    } else if (c.limit === 'ip') {
      const seen = await consume(seenOnIp, `${attempt.clientIp}_${attempt.account}`);
      if (seen.consumedPoints === 1) ledger.add(DAY_SECONDS * 1000);
      if (seen.consumedPoints > 1) return 0;
    }
    const state = await consume(c.limiter, key);
    if (tracked && state.consumedPoints === 1) ledger.add(c.windowSeconds * 1000);
    if (state.consumedPoints < c.points) return 0;
    // A block may outlive the count it ends: counted once more, for as long as it lasts.
    if (tracked) ledger.add(c.blockSeconds * 1000);
    await Promise.all([c.limiter.block(key, c.blockSeconds), c.localBlocks?.block(key, c.blockSeconds)]);
    options.onBlock?.(c.limit);
    return c.blockSeconds;
  }

  const applying = (attempt: LoginAttempt) =>
    counters.flatMap((c) => {
      const key = c.key(attempt);
      return key === undefined ? [] : [{ c, key }];
    });

  return {
    async retryAfterSeconds(attempt) {
      const waits = await Promise.all(applying(attempt).map(({ c, key }) => waitOf(c, key)));
      return Math.max(0, ...waits);
    },

    async recordFailure(attempt) {
      const full = ledger.size() >= maxTracked;
      const blocks = await Promise.all(
        applying(attempt).map(async ({ c, key }) => {
          if (c.limit === 'overflow') return full ? fail(c, key, attempt) : 0;
          if (c.limit === 'overflow_ip') {
            // Only for an address whose `ip` counter does not exist: that one counts by itself.
            const ipKey = attempt.clientIp;
            return full && (await ipCounter.limiter.get(ipKey)) === null ? fail(c, key, attempt) : 0;
          }
          // Full: a device still counts; otherwise only a counter that exists (a new one would add memory:
          // the overflow counters stand in for it).
          if (!full || c.limit === 'device') return fail(c, key, attempt);
          if ((await c.limiter.get(key)) === null) return 0;
          return fail(c, key, attempt, true);
        }),
      );
      return Math.max(0, ...blocks);
    },

    trackedCounters: () => ledger.size(),

    async recordSuccess(attempt) {
      const cleared = applying(attempt).filter(({ c }) => c.limit === 'device' || c.limit === 'user_ip');
      await Promise.all(
        cleared.map(async ({ c, key }) => {
          // A deleted counter no longer holds memory: the ledger stops counting it (it was counted when made).
          if (await c.limiter.delete(key)) ledger.release(c.windowSeconds * 1000);
        }),
      );
    },
  };
}

/** `consume`, whose "over the limit" rejection (a `RateLimiterRes`, not an Error) is just a state here. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}
