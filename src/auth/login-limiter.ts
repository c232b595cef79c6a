/**
 * Counting failed logins (rate-limiter-flexible), after its "login endpoint protection" recipe:
 *
 * - per username + client IP: `maxConsecutiveFailures` failures in a row block that pair for
 *   `blockSeconds`; a success clears the count. This stops guessing one account's password.
 * - per username, from any IP: a larger bound per day, so a botnet cannot spread guesses over many IPs.
 * - per client IP, any username: a bound per day, so one client cannot try one password on many accounts.
 *
 * Every username counts, existing or not, so a block never tells whether an account exists. Usernames are
 * stored hashed (the store need not hold them, and keys stay short whatever a client sends). The counters
 * live in memory, or in Redis when a client is given so that every replica shares them; if Redis fails, an
 * in-memory insurance limiter takes over for that call instead of letting every guess through.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** Which counter blocked. */
export type LoginLimit = 'user_ip' | 'user' | 'ip';

/** Options of {@link createLoginLimiter}; each documents its setting and default. */
export interface LoginLimiterOptions {
  /** `LOGIN_MAX_CONSECUTIVE_FAILURES`: failures in a row for one username from one IP. Default 10. */
  maxConsecutiveFailures: number;
  /** `LOGIN_BLOCK_SECONDS`: how long a username + IP pair (or a username) stays blocked. Default 3600. */
  blockSeconds: number;
  /** `LOGIN_MAX_FAILURES_PER_USER`: failures for one username in a day, from any IP. Default 100. */
  maxFailuresPerUser: number;
  /** `LOGIN_MAX_FAILURES_PER_IP`: failures from one IP in a day, any username; blocks for a day. Default 100. */
  maxFailuresPerIp: number;
  /** Shared store (`REDIS_URL`); counters stay in this process without it. */
  redis?: Redis | undefined;
  /** Prefix of the store's keys. Default `login`. */
  keyPrefix?: string;
  /** Called when a counter starts a block (metrics). */
  onBlock?: (limit: LoginLimit) => void;
}

/** See {@link createLoginLimiter}. */
export interface LoginLimiter {
  /** Seconds the caller must wait before this login may be tried, or 0 when it may be tried now. */
  retryAfterSeconds(username: string, clientIp: string): Promise<number>;
  /** Counts a refused login; answers the seconds of a block it started, or 0. */
  recordFailure(username: string, clientIp: string): Promise<number>;
  /** Clears the username + IP count after a successful login. */
  recordSuccess(username: string, clientIp: string): Promise<void>;
}

const DAY_SECONDS = 24 * 3600;

interface Counter {
  limit: LoginLimit;
  limiter: RateLimiterAbstract;
  points: number;
  blockSeconds: number;
  key(user: string, ip: string): string;
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
  const counters: Counter[] = [
    {
      limit: 'user_ip',
      // The count of consecutive failures lives as long as a block would; a success deletes it.
      limiter: make('user_ip', options.maxConsecutiveFailures, options.blockSeconds),
      points: options.maxConsecutiveFailures,
      blockSeconds: options.blockSeconds,
      key: (user, ip) => `${user}_${ip}`,
    },
    {
      limit: 'user',
      limiter: make('user', options.maxFailuresPerUser, DAY_SECONDS),
      points: options.maxFailuresPerUser,
      blockSeconds: options.blockSeconds,
      key: (user) => user,
    },
    {
      limit: 'ip',
      limiter: make('ip', options.maxFailuresPerIp, DAY_SECONDS),
      points: options.maxFailuresPerIp,
      blockSeconds: DAY_SECONDS,
      key: (_user, ip) => ip,
    },
  ];

  return {
    async retryAfterSeconds(username, clientIp) {
      const user = userKey(username);
      const states = await Promise.all(counters.map((c) => c.limiter.get(c.key(user, clientIp))));
      let wait = 0;
      states.forEach((state, i) => {
        // `block()` stores one point more than the limit: that, and only that, is a block.
        if (state !== null && state.consumedPoints > (counters[i]?.points ?? Infinity)) {
          wait = Math.max(wait, Math.ceil(state.msBeforeNext / 1000));
        }
      });
      return wait;
    },

    async recordFailure(username, clientIp) {
      const user = userKey(username);
      const blocks = await Promise.all(
        counters.map(async (counter) => {
          const key = counter.key(user, clientIp);
          const state = await consume(counter.limiter, key);
          if (state.consumedPoints < counter.points) return 0;
          await counter.limiter.block(key, counter.blockSeconds);
          options.onBlock?.(counter.limit);
          return counter.blockSeconds;
        }),
      );
      return Math.max(0, ...blocks);
    },

    async recordSuccess(username, clientIp) {
      const [pair] = counters;
      if (pair) await pair.limiter.delete(pair.key(userKey(username), clientIp));
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

/** Usernames differ in case and spaces only by mistake: count them as one, hashed. */
function userKey(username: string): string {
  return createHash('sha256').update(username.trim().toLowerCase()).digest('base64url').slice(0, 22);
}
