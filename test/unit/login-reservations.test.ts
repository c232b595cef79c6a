/**
 * Login budgets reserved before the upstream call (`login-limiter.ts`): however many attempts arrive
 * together, at most as many are admitted as each budget holds (per account and address, per account, per
 * address by distinct accounts), in memory and in a real Redis alike; a success or an outage gives its
 * reservation back, a failure keeps it.
 */
import { Redis } from 'ioredis';
import { describe, expect, it, type TestContext } from 'vitest';
import {
  createLoginLimiter,
  type LoginAttempt,
  type LoginLimiter,
  type LoginReservation,
} from '../../src/auth/login-limiter.ts';
import { createRedisGuard, type RedisGuard } from '../../src/auth/redis/redis-guard.ts';
import { useRedisServer } from '../support/servers/redis-server.ts';

const BUDGETS = {
  maxConsecutiveFailures: 10,
  blockSeconds: 3600,
  maxFailuresPerUser: 25,
  maxFailuresPerIp: 15,
};

function limiter(redis?: RedisGuard, keyPrefix?: string): LoginLimiter {
  return createLoginLimiter({ ...BUDGETS, maxTrackedCounters: 50_000, redis, keyPrefix });
}

/** Reserves for every attempt at once, as concurrent or pipelined logins do; answers the admitted ones. */
async function burst(guard: LoginLimiter, attempts: LoginAttempt[]): Promise<LoginReservation[]> {
  const reservations = await Promise.all(attempts.map((attempt) => guard.reserve(attempt)));
  return reservations.filter((reservation) => reservation.refusedForSeconds === 0);
}

const times = (n: number, attempt: (i: number) => LoginAttempt) =>
  Array.from({ length: n }, (_, i) => attempt(i));

/** The cases, run against a store made by `make` (a fresh key space each time). */
function reservationCases(make: (context: TestContext) => LoginLimiter) {
  it('should admit LOGIN_MAX_CONSECUTIVE_FAILURES of 200 guesses arriving together, then refuse the right one', async (context) => {
    const guard = make(context);
    const attempt = { account: 'n.victim', clientIp: '203.0.113.1' };
    const admitted = await burst(
      guard,
      times(200, () => attempt),
    );
    expect(admitted).toHaveLength(10);
    const blocks = await Promise.all(admitted.map((reservation) => reservation.failed()));
    expect(blocks.filter((seconds) => seconds > 0)).toEqual([3600]);
    expect((await guard.reserve(attempt)).refusedForSeconds).toBeGreaterThan(3590);
  });

  it('should admit LOGIN_MAX_FAILURES_PER_USER of 64 guesses from 64 addresses at once', async (context) => {
    const guard = make(context);
    const admitted = await burst(
      guard,
      times(64, (i) => ({ account: 'n.victim', clientIp: `198.51.100.${i}` })),
    );
    expect(admitted).toHaveLength(25);
    await Promise.all(admitted.map((reservation) => reservation.failed()));
    expect(
      (await guard.reserve({ account: 'n.victim', clientIp: '192.0.2.200' })).refusedForSeconds,
    ).toBeGreaterThan(0);
  });

  it('should admit LOGIN_MAX_FAILURES_PER_IP distinct accounts from one address at once', async (context) => {
    const guard = make(context);
    const admitted = await burst(
      guard,
      times(64, (i) => ({ account: `n.spray${i}`, clientIp: '203.0.113.9' })),
    );
    expect(admitted).toHaveLength(15);
    await Promise.all(admitted.map((reservation) => reservation.failed()));
    expect(
      (await guard.reserve({ account: 'n.other', clientIp: '203.0.113.9' })).refusedForSeconds,
    ).toBeGreaterThan(3600);
    expect((await guard.reserve({ account: 'n.other', clientIp: '203.0.113.10' })).refusedForSeconds).toBe(0);
  });

  it('should give a success and an outage their reservation back, and keep a failure', async (context) => {
    const guard = make(context);
    const attempt = { account: 'n.owner', clientIp: '192.0.2.5' };
    for (const settle of ['succeeded', 'released', 'succeeded', 'released'] as const) {
      const admitted = await burst(
        guard,
        times(20, () => attempt),
      );
      expect(admitted).toHaveLength(10);
      await Promise.all(admitted.map((reservation) => reservation[settle]()));
    }
    const kept = await burst(
      guard,
      times(4, () => attempt),
    );
    await Promise.all(kept.map((reservation) => reservation.failed()));
    expect(
      await burst(
        guard,
        times(30, () => attempt),
      ),
    ).toHaveLength(6);
  });
}

describe('login reservations in memory', () => {
  reservationCases(() => limiter());
});

describe('login reservations in Redis', () => {
  const redis = useRedisServer();
  let prefix = 0;
  reservationCases((context) => {
    const client = new Redis(redis.urlOrSkip(context), { lazyConnect: false });
    const quiet = () => undefined;
    const guard = createRedisGuard({
      redis: client,
      log: { info: quiet, warn: quiet, error: quiet },
      commandTimeoutMillis: 1_000,
    });
    context.onTestFinished(() => guard.close());
    prefix += 1;
    return limiter(guard, `reserve${prefix}`);
  });
});
