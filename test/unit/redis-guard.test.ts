/**
 * The Redis guard (`src/auth/redis/redis-guard.ts`) against a real `redis-server`: a frozen server costs
 * each call one deadline until a few in a row open the breaker, then nothing; the guard's own probe brings
 * it back; a gateway too busy to read an answer in time does not take its Redis for a frozen one; an
 * answer of Redis (an error it replied) opens nothing.
 */
import { Redis } from 'ioredis';
import { describe, expect, it, type TestContext } from 'vitest';
import { RedisBypassed, createRedisGuard, type RedisGuard } from '../../src/auth/redis/redis-guard.ts';
import { startRedisServer, type RedisServer } from '../support/servers/redis-server.ts';

const DEADLINE_MILLIS = 50;

interface Logged {
  level: 'info' | 'warn' | 'error';
  message: string;
}

async function setUp(
  context: TestContext,
): Promise<{ server: RedisServer; guard: RedisGuard; logged: Logged[] }> {
  const server = await startRedisServer();
  if ('skipped' in server) return context.skip(`no redis-server: ${server.skipped}`);
  const client = new Redis(server.url, { enableOfflineQueue: false, lazyConnect: true });
  client.on('error', () => undefined);
  await client.connect();
  const logged: Logged[] = [];
  const log = (level: Logged['level']) => (_object: object, message: string) =>
    logged.push({ level, message });
  const guard = createRedisGuard({
    redis: client,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    commandTimeoutMillis: DEADLINE_MILLIS,
    failuresToOpen: 3,
    halfOpenAfterMillis: 200,
  });
  context.onTestFinished(async () => {
    await guard.close();
    await server.close();
  });
  return { server, guard, logged };
}

/** Occupies this process for `millis` without yielding, as a long parse or a saturated CPU does. */
function busyFor(millis: number): void {
  const until = performance.now() + millis;
  while (performance.now() < until) {
    // spin
  }
}

const outcome = (call: Promise<unknown>) =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error instanceof Error ? error.name : String(error) }),
  );

describe('the Redis guard', () => {
  it('should time out 3 calls against a frozen server, then refuse at once, and come back by its own probe', async (context) => {
    const { server, guard, logged } = await setUp(context);
    expect(await guard.run((redis) => redis.ping(), 'read')).toBe('PONG');

    server.pause();
    const first = await Promise.all(
      [1, 2, 3].map(() => outcome(guard.run((redis) => redis.get('k'), 'read'))),
    );
    expect(first).toEqual([1, 2, 3].map(() => ({ error: 'RedisTimeout' })));
    expect(guard.status()).toBe('bypassed');
    // Each timed-out command fell back to its caller's memory; the breaker opened once.
    expect([guard.fallbacks(), guard.bypasses()]).toEqual([3, 1]);
    expect(guard.isUp()).toBe(false);
    await expect(guard.run((redis) => redis.get('k'), 'read')).rejects.toBeInstanceOf(RedisBypassed);
    expect(guard.fallbacks()).toBe(4);
    expect(logged.map(({ level }) => level)).toEqual(['warn']);

    server.resume();
    await expect.poll(() => guard.status(), { timeout: 10_000 }).toBe('up');
    expect(await guard.run((redis) => redis.ping(), 'read')).toBe('PONG');
    expect(logged.map(({ level, message }) => `${level}: ${message.split(';')[0] ?? ''}`)).toEqual([
      'warn: redis bypassed after commands failed in a row',
      'info: redis answers again',
    ]);
  });

  it('should take an answer that arrived while this process was too busy to read it as an answer', async (context) => {
    const { guard, logged } = await setUp(context);
    for (let i = 0; i < 5; i += 1) {
      const call = guard.run((redis) => redis.ping(), 'read');
      // Busy well past the deadline: the answer waits in the socket, the deadline's timer is overdue.
      busyFor(DEADLINE_MILLIS * 4);
      expect(await outcome(call)).toEqual({ value: 'PONG' });
    }
    expect(guard.status()).toBe('up');
    expect(logged).toEqual([]);
  });

  it('should count an error Redis answered as an answer, not as an outage', async (context) => {
    const { guard } = await setUp(context);
    await guard.run((redis) => redis.set('text', 'x'), 'write');
    for (let i = 0; i < 5; i += 1) {
      // INCR of a text: Redis answers an error; Redis is there.
      expect(await outcome(guard.run((redis) => redis.incr('text'), 'write'))).toEqual({
        error: 'ReplyError',
      });
    }
    expect(guard.status()).toBe('up');
    expect(guard.fallbacks()).toBe(0);
  });
});
