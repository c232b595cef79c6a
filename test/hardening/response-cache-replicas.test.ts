/**
 * The response cache on two replicas sharing one `redis-server` (its versions there, its entries in each
 * replica's memory): a write through replica A is seen at once by the writer reading through replica B, which
 * had the old version cached; with Redis frozen the cache steps aside (reads go upstream, counted) instead of
 * serving what a write may have changed, a write made meanwhile is never hidden by what a replica held
 * before, and back, it serves from memory again.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useGatewayPool } from '../support/gateway-pool.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startRedisServer } from '../support/servers/redis-server.ts';

const LOAN = 'com.example.LoanType';
const { emulator, gateway } = useGatewayPool({
  env: {
    CACHE: 'on',
    CACHE_POLICIES: `${LOAN}=300:PRIVATE`,
    // One secret for both replicas: a token sealed by A opens on B.
    SESSION_SECRET: 'response-cache-replicas-secret-0123456789',
  },
});

const LOGIN = 'mutation { login(username: "demo", password: "demo-password") { token } }';
const SAVE =
  'mutation($data: JSONObject!) { saveObject(objectName: "com.example.LoanType", data: $data) { id } }';
const UPDATE =
  'mutation($id: ID!, $data: JSONObject!) { updateObject(objectName: "com.example.LoanType", id: $id, data: $data) { id } }';
const READ = 'query($id: ID) { object(objectName: "com.example.LoanType", id: $id) { data } }';

function reads(): number {
  const calls = emulator.stats();
  return calls.getAll + calls.getObject;
}

async function post(gw: TestGateway, query: string, variables: Record<string, unknown>, token?: string) {
  const answer = await gw.post(
    query,
    variables,
    token === undefined ? {} : { authorization: `Bearer ${token}` },
  );
  expect(answer.errors).toBeUndefined();
  return answer.data ?? {};
}

/** Logs the demo user in through `gw`: its token opens at every replica (one secret). */
async function login(gw: TestGateway): Promise<string> {
  return ((await post(gw, LOGIN, {})).login as { token: string }).token;
}

/** Saves a new LoanType of `loanType` and `rate` through `gw`; answers its id. */
async function saveLoan(gw: TestGateway, token: string, loanType: string, rate: number): Promise<string> {
  return ((await post(gw, SAVE, { data: { loanType, rate } }, token)).saveObject as { id: string }).id;
}

async function loanTypeOn(gw: TestGateway, id: string, token: string): Promise<unknown> {
  const data = await post(gw, READ, { id }, token);
  return (data.object as { data?: { loanType?: unknown } } | null)?.data?.loanType;
}

describe('the response cache on two replicas sharing Redis', () => {
  it("shows the writer's write through A on its next read through B, at once", async (context) => {
    const redis = await startRedisServer();
    if ('skipped' in redis) return context.skip(redis.skipped);
    try {
      const env = { REDIS_URL: redis.url };
      const [a, b] = [await gateway(env), await gateway(env)];
      const token = await login(a);
      const id = await saveLoan(a, token, 'v1', 1);

      // B caches v1: its second read is answered from memory.
      expect(await loanTypeOn(b, id, token)).toBe('v1');
      const before = reads();
      expect(await loanTypeOn(b, id, token)).toBe('v1');
      expect(reads()).toBe(before);

      await post(a, UPDATE, { id, data: { loanType: 'v2' } }, token);
      expect(await loanTypeOn(b, id, token)).toBe('v2');
      expect(await loanTypeOn(a, id, token)).toBe('v2');

      // Redis frozen: each read goes upstream (the versions cannot be read), never B's memory.
      redis.pause();
      try {
        const frozen = reads();
        expect(await loanTypeOn(b, id, token)).toBe('v2');
        expect(reads()).toBeGreaterThan(frozen);
        const metrics = await (await b.fetch('/metrics')).text();
        expect(metrics).toMatch(
          /gateway_cache_events_total\{object_type="com\.example\.LoanType",event="bypassed"\} [1-9]/,
        );
        // A write through A while Redis cannot take its version: B must not serve what it held before.
        await post(a, UPDATE, { id, data: { loanType: 'v3' } }, token);
        expect(await loanTypeOn(b, id, token)).toBe('v3');
      } finally {
        redis.resume();
      }
      // Back: B answers from memory again (once its breaker has probed Redis), never the version before v3.
      await expect
        .poll(async () => {
          const start = reads();
          expect(await loanTypeOn(b, id, token)).toBe('v3');
          expect(await loanTypeOn(b, id, token)).toBe('v3');
          expect(await loanTypeOn(a, id, token)).toBe('v3');
          expect(await loanTypeOn(a, id, token)).toBe('v3');
          return reads() - start;
        })
        .toBeLessThanOrEqual(2);
    } finally {
      await redis.close();
    }
  });

  it('shares entries through Redis within CACHE_REDIS_MAX_BYTES, and none past it', async (context) => {
    const redis = await startRedisServer();
    if ('skipped' in redis) return context.skip(redis.skipped);
    try {
      const shared = { REDIS_URL: redis.url, CACHE_REDIS_MAX_BYTES: '1000000' };
      const [a, b] = [await gateway(shared), await gateway(shared)];
      const token = await login(a);
      const id = await saveLoan(a, token, 'shared', 1);
      expect(await loanTypeOn(a, id, token)).toBe('shared');
      // A writes its entry to Redis without making its answer wait: once it is there, B reads it, not upstream.
      const client = new Redis(redis.url);
      try {
        await expect.poll(async () => (await client.keys('gateway:cache:entry:*')).length).toBeGreaterThan(0);
      } finally {
        client.disconnect();
      }
      const before = reads();
      expect(await loanTypeOn(b, id, token)).toBe('shared');
      expect(reads()).toBe(before);
      // A write through B: A's memory and Redis's entry are of the old version, never served.
      await post(b, UPDATE, { id, data: { loanType: 'shared-2' } }, token);
      expect(await loanTypeOn(a, id, token)).toBe('shared-2');

      // A bound smaller than one entry: nothing is shared, each replica reads upstream for itself.
      const tiny = { REDIS_URL: redis.url, CACHE_REDIS_MAX_BYTES: '200' };
      const [c, d] = [await gateway(tiny), await gateway(tiny)];
      const other = await saveLoan(c, token, 'unshared', 2);
      expect(await loanTypeOn(c, other, token)).toBe('unshared');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const unshared = reads();
      expect(await loanTypeOn(d, other, token)).toBe('unshared');
      expect(reads()).toBe(unshared + 1);
    } finally {
      await redis.close();
    }
  });
});
