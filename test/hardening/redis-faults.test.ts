/**
 * Logouts that survive Redis's faults, and a Redis in trouble that costs milliseconds: two gateway replicas
 * share a real `redis-server`, which the tests stop, restart (with its append-only file, or empty), freeze
 * (SIGSTOP) and fill (`maxmemory` with `noeviction`). A logout taken on replica A must end the session on
 * replica B, which never saw it, whatever Redis went through in between.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it, type TestContext } from 'vitest';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { logCapture, type LogLine } from '../support/log-capture.ts';
import { loginDemo, postGraphql } from '../support/post-graphql.ts';
import {
  startRedisServer,
  type RedisServer,
  type RedisServerOptions,
} from '../support/servers/redis-server.ts';

const SECRET = 's'.repeat(40);
const ME = '{ me { username } }';
const LOGOUT = 'mutation { logout }';
const COMMAND_TIMEOUT_MILLIS = 150;

const { emulator } = useGatewayPool();

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A redis-server for one test, stopped after it; skips the test (saying why) when there is none. */
async function redisFor(context: TestContext, options: RedisServerOptions = {}): Promise<RedisServer> {
  const started = await startRedisServer(options);
  if ('skipped' in started) return context.skip(`no redis-server: ${started.skipped}`);
  context.onTestFinished(() => started.close());
  return started;
}

/** A replica sharing `redis`, with its log captured; closed after the test. */
async function replica(context: TestContext, redis: RedisServer) {
  const log = logCapture();
  const gateway = await startGateway({
    upstreamUrl: emulator.url,
    logStream: log.stream,
    env: {
      SESSION_SECRET: SECRET,
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MILLIS),
      LOG_LEVEL: 'info',
    },
  });
  context.onTestFinished(() => gateway.close());
  return { ...gateway, lines: log.lines };
}

type Replica = Awaited<ReturnType<typeof replica>>;

/** What `me` answers on `gateway` for `token`: the user's name, or null once the session is dead. */
async function meOf(gateway: TestGateway, token: string): Promise<string | null> {
  const answer = await postGraphql(gateway.graphqlUrl, ME, {}, bearer(token));
  const me = (answer.data as { me: { username: string } | null } | undefined)?.me;
  return me?.username ?? null;
}

/** Polls `check` until it holds; fails with `what` after `timeoutMillis`. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMillis = 15_000) {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`never: ${what}`);
}

async function metric(gateway: TestGateway, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function readiness(
  gateway: TestGateway,
): Promise<{ code: number; redis: { status: string; detail: string } }> {
  const response = await fetch(`${gateway.baseUrl}/readyz`);
  const body = (await response.json()) as { redis: { status: string; detail: string } };
  return { code: response.status, redis: body.redis };
}

const linesSaying = (gw: Replica, text: string): LogLine[] =>
  gw.lines().filter((line) => line.msg.includes(text));

/**
 * Once Redis takes writes again: the logout A kept to itself meanwhile reaches B (`what` says when, for the
 * failure), A has nothing left to write, and Redis is not full.
 */
async function expectLogoutShared(a: TestGateway, b: TestGateway, token: string, what: string) {
  await eventually(what, async () => (await meOf(b, token)) === null);
  await eventually(
    'A has nothing left to write',
    async () => (await metric(a, 'gateway_session_revocations_unshared')) === 0,
  );
  expect(await metric(a, 'gateway_redis_full')).toBe(0);
}

/** Two replicas, a session opened on A and already used on B (B's cache of opened sessions holds it). */
async function twoReplicasAndASession(context: TestContext, redis: RedisServer) {
  const a = await replica(context, redis);
  const b = await replica(context, redis);
  const token = await loginDemo(a.graphqlUrl);
  expect(await meOf(b, token)).toBe('demo');
  return { a, b, token };
}

describe('a logout taken while Redis is stopped', () => {
  it('should reach Redis when it is back: the other replica refuses the token', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'redis-aof-'));
    context.onTestFinished(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    // The shipped Redis keeps an append-only file: it comes back with its data.
    const persistent = ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir];
    const redis = await redisFor(context, { args: persistent });
    const { a, b, token } = await twoReplicasAndASession(context, redis);
    const admin = new Redis(redis.url);
    // Each replica's marker says Redis holds what it wrote (written once its start's stall is over).
    await eventually(
      'both replicas marked Redis',
      async () => (await admin.keys('session_dead_replica:*')).length === 2,
    );
    admin.disconnect();

    await redis.close();
    expect((await postGraphql(a.graphqlUrl, LOGOUT, {}, bearer(token))).data).toEqual({ logout: true });
    expect(await meOf(a, token)).toBeNull();
    expect(await metric(a, 'gateway_session_revocations_unshared')).toBe(1);

    await redisFor(context, { port: redis.port, args: persistent });
    await expectLogoutShared(a, b, token, 'replica B refuses the token logged out on A');
    expect(linesSaying(a, 'session revocations written to redis again')).toMatchObject([
      { cause: 'unshared', written: 1 },
    ]);
  });
});

describe('a Redis restarted empty', () => {
  it('should be refilled: the other replica refuses a token logged out before the restart', async (context) => {
    const redis = await redisFor(context);
    const { a, b, token } = await twoReplicasAndASession(context, redis);
    expect((await postGraphql(a.graphqlUrl, LOGOUT, {}, bearer(token))).data).toEqual({ logout: true });
    expect(await meOf(b, token)).toBeNull();

    await redis.close();
    await redisFor(context, { port: redis.port });
    await eventually('A refilled the emptied Redis', () =>
      Promise.resolve(linesSaying(a, 'session revocations written to redis again').length > 0),
    );
    expect(await meOf(b, token)).toBeNull();
    expect(linesSaying(a, 'session revocations written to redis again')).toMatchObject([
      { cause: 'redis_emptied', written: 1 },
    ]);
  });
});

describe('a frozen Redis (SIGSTOP)', () => {
  it('should be bypassed after a few commands: requests answer without waiting for it, one log line, gateway_redis_up 0', async (context) => {
    const redis = await redisFor(context);
    const { a, token } = await twoReplicasAndASession(context, redis);
    const admin = new Redis(redis.url);
    context.onTestFinished(() => {
      admin.disconnect();
    });
    expect(await metric(a, 'gateway_redis_up')).toBe(1);
    await admin.config('RESETSTAT');

    redis.pause();
    const durations: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const started = performance.now();
      expect(await meOf(a, token)).toBe('demo');
      durations.push(performance.now() - started);
    }
    // Before the breaker each of them waited for Redis (1 s then); now the first few wait its deadline.
    expect(durations.filter((millis) => millis < 1_000).length).toBeGreaterThanOrEqual(36);
    expect(await metric(a, 'gateway_redis_up')).toBe(0);
    expect(await metric(a, 'gateway_redis_bypasses_total')).toBe(1);
    // Logins too: their counters count in the replica's memory meanwhile.
    expect(await loginDemo(a.graphqlUrl)).toEqual(expect.any(String));
    const ready = await readiness(a);
    expect(ready.code).toBe(200);
    expect(ready.redis.status).toBe('bypassed');
    expect(ready.redis.detail).toMatch(/own memory/);
    // Not a line per request, from any part of the gateway: one, for the change.
    const warnings = a.lines().filter((line) => Number(line.level) >= 40);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringMatching(/^redis bypassed/)]);
    expect(warnings[0]).not.toHaveProperty('stack');

    redis.resume();
    await eventually('A uses Redis again by itself', async () => (await metric(a, 'gateway_redis_up')) === 1);
    expect((await readiness(a)).redis.status).toBe('ok');
    expect(linesSaying(a, 'redis answers again')).toHaveLength(1);
    // What the frozen server received meanwhile, read once it runs: the session checks that opened the
    // breaker, not one per request.
    const stats = await admin.info('commandstats');
    // A session check reads its token's entry and its user's cut-off in one MGET.
    const calls = (command: string) =>
      Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
    const gets = calls('get') + calls('mget');
    expect(gets).toBeGreaterThan(0);
    expect(gets).toBeLessThanOrEqual(3);
  });
});

describe('a full Redis (maxmemory, noeviction)', () => {
  it('should keep a logout in the replica, say so once, and write it when Redis has room again', async (context) => {
    const redis = await redisFor(context, { args: ['--maxmemory-policy', 'noeviction'] });
    const { a, b, token } = await twoReplicasAndASession(context, redis);
    const admin = new Redis(redis.url);
    context.onTestFinished(() => {
      admin.disconnect();
    });
    await admin.config('SET', 'maxmemory', '1');

    expect((await postGraphql(a.graphqlUrl, LOGOUT, {}, bearer(token))).data).toEqual({ logout: true });
    expect(await meOf(a, token)).toBeNull();
    expect(await metric(a, 'gateway_session_revocations_unshared')).toBe(1);
    expect((await readiness(a)).redis.status).toBe('full');
    // It answers, so it is up; full says why logouts stay here.
    expect(await metric(a, 'gateway_redis_up')).toBe(1);
    expect(await metric(a, 'gateway_redis_full')).toBe(1);
    const errors = a.lines().filter((line) => line.component === 'redis' && Number(line.level) >= 50);
    expect(errors.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^redis refuses writes: out of memory/),
    ]);

    await admin.config('SET', 'maxmemory', '0');
    await expectLogoutShared(a, b, token, 'replica B refuses the token once Redis has room');
    expect(linesSaying(a, 'redis takes writes again')).toHaveLength(1);
  });
});
