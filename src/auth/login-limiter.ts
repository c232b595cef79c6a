/**
 * Counting failed logins (rate-limiter-flexible) so that an attacker cannot aim a lock-out at a victim
 * (OWASP authentication cheat sheet, "device cookies"):
 *
 * - a **known device** (a client that sent a valid device token of this account) has its own count of
 *   consecutive failures: `maxConsecutiveFailures` in a row block that device for `blockSeconds`. Nothing
 *   else counts against it, so failures it did not make never lock it out.
 * - every **other client** is counted per account + client IP (`maxConsecutiveFailures` in a row block that
 *   pair), per account from all addresses (`maxFailuresPerUser` failures per `blockSeconds` window, then every
 *   unknown client of that account waits `blockSeconds`: the guess budget of a botnet), and per IP (IPv6: per /64) by
 *   *distinct* accounts that failed from it in a day (`maxFailuresPerIp`, blocking unknown clients there
 *   for a day), so one person's typing behind an office proxy blocks nobody else.
 *
 * A login's points are **reserved before the upstream call** (`reserve`): each counter's point is taken
 * atomically in its store (rate-limiter-flexible's `consume`, a Lua script in Redis), so attempts in flight
 * fill a budget as failures do, and an attempt that finds one full gives its points back and is refused. No
 * number of concurrent, pipelined or replicated guesses reaches the upstream more often than the budgets
 * hold. The answer settles the reservation: a refusal keeps it as a failure (the one that took a budget's
 * last point starts its block), a success gives it back and clears the consecutive counts, and an answer
 * that judged nothing (an outage, a timeout) gives it back, since no guess was made. Where a success clears
 * a consecutive count while other logins of the same pair are settling, a point given back to the cleared
 * count is taken again rather than going below zero: such races can leave a point counted (stricter),
 * never a free guess.
 *
 * Accounts are counter keys from `src/auth/account-links.ts` (hashed; a username and its linked mobile number
 * share one). Counters live in memory, or in Redis so that every replica shares them; while Redis fails (or
 * its guard bypasses it, `redis/redis-guard.ts`) an in-memory twin counts instead (`redis/guarded-limiter.ts`). Blocks are also kept in this process, so a block started during
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
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { clientNetwork } from '../client-address/client-network.ts';
import { createCounterLedger } from './counter-ledger.ts';
import { slotOf } from './overflow-slot.ts';
import { guardedLimiter, type CounterStore } from './redis/guarded-limiter.ts';
import type { RedisGuard } from './redis/redis-guard.ts';

/** Every counter that can block, the values of {@link LoginLimit} (the metrics count each from 0). */
export const LOGIN_LIMITS = ['device', 'user_ip', 'user', 'ip', 'overflow', 'overflow_ip'] as const;

/** Which counter blocked. */
export type LoginLimit = (typeof LOGIN_LIMITS)[number];

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
  /** Shared store (`REDIS_URL`), behind its guard; counters stay in this process without it. */
  redis?: RedisGuard | undefined;
  /** Prefix of the store's keys. Default `login`. */
  keyPrefix?: string;
  /** Called when a counter starts a block (metrics). */
  onBlock?: (limit: LoginLimit) => void;
}

/** One login attempt, as counted. */
export interface LoginAttempt {
  /** The account's counter key (hashed). */
  account: string;
  /**
   * The typed name's own counter key (`nameKey`), when the account is another (a link's): the account's
   * guess budget counts there too. A name's links differ by login method (a JSON login's lookup links it
   * for JSON logins only; a form login for form logins only), so without it guesses at one name through
   * both methods had a budget each.
   */
  name?: string | undefined;
  clientIp: string;
  /** Set when the client sent a valid device token of this account. */
  deviceId?: string | undefined;
}

/**
 * One login's hold on its budgets, taken before the upstream is asked ({@link LoginLimiter.reserve}). A
 * refused reservation (`refusedForSeconds` > 0) holds nothing and must not be settled; an admitted one is
 * settled exactly once, by what the upstream answered.
 */
export interface LoginReservation {
  /** Seconds to wait before trying again (a block, or 1 while attempts in flight fill a budget), or 0. */
  refusedForSeconds: number;
  /** The upstream refused the credentials: the reservation stays a failure; answers the seconds of a block it started, or 0. */
  failed(): Promise<number>;
  /** The upstream accepted them: the reservation is given back, and the consecutive counts cleared. */
  succeeded(): Promise<void>;
  /** The upstream did not judge the credentials (an outage, a timeout): the reservation is given back. */
  released(): Promise<void>;
}

/** See {@link createLoginLimiter}. */
export interface LoginLimiter {
  /** Seconds the caller must wait before this login may be tried (a block), or 0 when it may be tried now. */
  retryAfterSeconds(attempt: LoginAttempt): Promise<number>;
  /**
   * Takes one point of every budget the attempt falls under, each atomically in its store, before the
   * upstream call: an attempt that finds one of them full gives back what it took and is refused, so no
   * number of concurrent or pipelined attempts sends more guesses than the budgets hold.
   */
  reserve(attempt: LoginAttempt): Promise<LoginReservation>;
  /** Counters this process made that may still be alive (at most `maxTrackedCounters`, plus devices). */
  trackedCounters(): number;
}

const DAY_SECONDS = 24 * 3600;

interface Counter {
  limit: LoginLimit;
  limiter: CounterStore;
  /**
   * The counter's blocks, apart from its count: a refused or settled attempt gives its point back to the
   * count (`reward`), and where the block was the count itself (rate-limiter-flexible's `block` stores one
   * point more than the limit), a give-back racing a block at another replica undid it.
   */
  blocks: CounterStore;
  /** This process's copy of the counter's blocks (only with Redis): survives a Redis outage's end. */
  localBlocks: RateLimiterMemory | undefined;
  points: number;
  windowSeconds: number;
  blockSeconds: number;
  /** `undefined` when the counter does not apply to the attempt; several keys: each takes a point. */
  key(attempt: LoginAttempt): string | readonly string[] | undefined;
}

/** Creates the limiter. */
export function createLoginLimiter(options: LoginLimiterOptions): LoginLimiter {
  const prefix = options.keyPrefix ?? 'login';
  const make = (name: string, points: number, duration: number): CounterStore => {
    const settings = { keyPrefix: `${prefix}_${name}`, points, duration };
    const guard = options.redis;
    if (guard === undefined) return new RateLimiterMemory(settings);
    // Made on the client (it defines its script there); every call of it goes through the guard.
    const shared = new RateLimiterRedis({ ...settings, storeClient: guard.client });
    return guardedLimiter(shared, new RateLimiterMemory(settings), guard);
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
    blocks: make(`${limit}_block`, 1, blockSeconds),
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
  // By client network (an IPv6 host owns a /64 and picks any address in it for free): one host's
  // distinct-account budget, and what it can make the store hold, is one network's, not 2^64 of them.
  const ipCounter = counter('ip', options.maxFailuresPerIp, DAY_SECONDS, DAY_SECONDS, (a) =>
    known(a) ? undefined : clientNetwork(a.clientIp),
  );
  const counters: Counter[] = [
    // Consecutive counts live as long as a block would; a success deletes them.
    counter('device', consecutive, blockSeconds, blockSeconds, (a) =>
      known(a) ? `${a.account}_${a.deviceId ?? ''}` : undefined,
    ),
    counter('user_ip', consecutive, blockSeconds, blockSeconds, (a) =>
      known(a) ? undefined : `${a.account}_${a.clientIp}`,
    ),
    // The account's budget, and the typed name's own when the account is a link's (`LoginAttempt.name`).
    counter('user', options.maxFailuresPerUser, blockSeconds, blockSeconds, (a) => {
      if (known(a)) return undefined;
      return a.name === undefined || a.name === a.account ? a.account : [a.account, a.name];
    }),
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
  // Which accounts already failed from a client network today: the `ip` counter counts each account once.
  const seenOnIp = make('ip_seen', 1, DAY_SECONDS);
  const seenKeyOf = (attempt: LoginAttempt) => `${clientNetwork(attempt.clientIp)}_${attempt.account}`;

  async function waitOf(c: Counter, key: string): Promise<number> {
    const [shared, local] = await Promise.all([c.blocks.get(key), c.localBlocks?.get(key) ?? null]);
    let wait = 0;
    // `block()` stores one point more than the store's limit: that, and only that, is a block.
    if (shared !== null && shared.consumedPoints > 1) wait = Math.ceil(shared.msBeforeNext / 1000);
    if (local !== null && local.consumedPoints > c.points) {
      wait = Math.max(wait, Math.ceil(local.msBeforeNext / 1000));
    }
    return wait;
  }

  /** One point taken of a counter, and the counter's state right after. */
  interface Held {
    c: Counter;
    key: string;
    state: RateLimiterRes;
  }

  async function take(c: Counter, key: string): Promise<Held> {
    const state = await consume(c.limiter, key);
    if (!overflowOnly.has(c.limit) && state.consumedPoints === 1) ledger.add(c.windowSeconds * 1000);
    return { c, key, state };
  }

  /**
   * The counters one attempt takes a point of. While the table is full a counter that does not exist yet is
   * not made: its overflow slot stands in for it (one point for the account, one for the network).
   */
  async function targetsOf(attempt: LoginAttempt): Promise<{ targets: Held[]; seenMade: boolean }> {
    const full = ledger.size() >= maxTracked;
    const picked: { c: Counter; key: string }[] = [];
    let accountOverflow = false;
    let seenMade = false;
    for (const { c, key } of applying(attempt)) {
      if (overflowOnly.has(c.limit)) continue;
      if (c.limit === 'ip') {
        // The per-address budget counts distinct accounts: only the first attempt of an account takes a point.
        const seenKey = seenKeyOf(attempt);
        if (!full) {
          const seen = await consume(seenOnIp, seenKey);
          if (seen.consumedPoints > 1) continue;
          ledger.add(DAY_SECONDS * 1000);
          seenMade = true;
          picked.push({ c, key });
        } else if ((await seenOnIp.get(seenKey)) === null) {
          if ((await c.limiter.get(key)) !== null) picked.push({ c, key });
          else picked.push(...applying(attempt).filter(({ c: o }) => o.limit === 'overflow_ip'));
        }
        continue;
      }
      if (!full || c.limit === 'device' || (await c.limiter.get(key)) !== null) picked.push({ c, key });
      else accountOverflow = true;
    }
    if (accountOverflow) picked.push(...applying(attempt).filter(({ c }) => c.limit === 'overflow'));
    const targets = await Promise.all(picked.map(({ c, key }) => take(c, key)));
    return { targets, seenMade };
  }

  /** Gives every point back (and the "seen" mark this attempt made); a consecutive count may be cleared. */
  async function giveBack(
    attempt: LoginAttempt,
    { targets, seenMade }: { targets: Held[]; seenMade: boolean },
    clearConsecutive: boolean,
  ): Promise<void> {
    const seen = seenMade ? [forgetSeen(attempt)] : [];
    await Promise.all([
      ...seen,
      ...targets.map(async ({ c, key }) => {
        if (clearConsecutive && (c.limit === 'device' || c.limit === 'user_ip')) {
          // A deleted counter no longer holds memory: the ledger stops counting it (it was counted when made).
          if (await c.limiter.delete(key)) ledger.release(c.windowSeconds * 1000);
        } else {
          // A success that cleared the count first left nothing to give back: this point is then taken
          // again (each giver undoes only its own), as a count below zero would be a free guess.
          const state = await c.limiter.reward(key, 1);
          if (state.consumedPoints < 0) await c.limiter.penalty(key, 1);
        }
      }),
    ]);
  }

  async function forgetSeen(attempt: LoginAttempt): Promise<void> {
    if (await seenOnIp.delete(seenKeyOf(attempt))) ledger.release(DAY_SECONDS * 1000);
  }

  /** A failure kept: the attempt that took a budget's last point starts its block. */
  async function keep({ targets }: { targets: Held[] }): Promise<number> {
    const blocks = await Promise.all(
      targets.map(async ({ c, key, state }) => {
        if (state.consumedPoints < c.points) return 0;
        // A block may outlive the count it ends: counted once more, for as long as it lasts.
        if (!overflowOnly.has(c.limit)) ledger.add(c.blockSeconds * 1000);
        await Promise.all([c.blocks.block(key, c.blockSeconds), c.localBlocks?.block(key, c.blockSeconds)]);
        options.onBlock?.(c.limit);
        return c.blockSeconds;
      }),
    );
    return Math.max(0, ...blocks);
  }

  const applying = (attempt: LoginAttempt) =>
    counters.flatMap((c) => {
      const key = c.key(attempt);
      if (key === undefined) return [];
      return typeof key === 'string' ? [{ c, key }] : key.map((each) => ({ c, key: each }));
    });

  async function retryAfterSeconds(attempt: LoginAttempt): Promise<number> {
    const waits = await Promise.all(applying(attempt).map(({ c, key }) => waitOf(c, key)));
    return Math.max(0, ...waits);
  }

  return {
    retryAfterSeconds,

    async reserve(attempt) {
      const blocked = await retryAfterSeconds(attempt);
      if (blocked > 0) return refused(blocked);
      const held = await targetsOf(attempt);
      if (held.targets.some(({ c, state }) => state.consumedPoints > c.points)) {
        // Full without a block: attempts in flight hold the rest (the one holding the last point starts the
        // block if it fails). This one holds nothing and may try again in a moment.
        await giveBack(attempt, held, false);
        return refused(1);
      }
      let settled = false;
      const once = <T>(work: () => Promise<T>, none: T): Promise<T> => {
        if (settled) return Promise.resolve(none);
        settled = true;
        return work();
      };
      return {
        refusedForSeconds: 0,
        failed: () => once(() => keep(held), 0),
        succeeded: () => once(() => giveBack(attempt, held, true), undefined),
        released: () => once(() => giveBack(attempt, held, false), undefined),
      };
    },

    trackedCounters: () => ledger.size(),
  };
}

function refused(seconds: number): LoginReservation {
  const none = () => Promise.resolve();
  return { refusedForSeconds: seconds, failed: () => Promise.resolve(0), succeeded: none, released: none };
}

/** `consume`, whose "over the limit" rejection (a `RateLimiterRes`, not an Error) is just a state here. */
async function consume(limiter: CounterStore, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}
