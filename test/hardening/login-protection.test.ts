/**
 * Brute-force protection of `login`: blocks after consecutive failures per username + client IP, per
 * username and per IP; the same generic error plus `retryAfter`; no timing difference between a wrong
 * password and an unknown user; the client IP from `x-forwarded-for` only behind a trusted proxy; and the
 * counters shared by two replicas through a real Redis.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { type TestGateway } from '../support/gateway-harness.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOGIN, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';
import { useRedisServer } from '../support/servers/redis-server.ts';

const { emulator, gateway } = useGatewayPool();

function login(
  gw: TestGateway,
  username: string,
  password: string,
  forwardedFor?: string,
): Promise<GraphqlAnswer> {
  return postGraphql(
    gw.graphqlUrl,
    LOGIN,
    { username, password },
    forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  );
}

/** `undefined` when the login worked; otherwise the error's extensions and message. */
function failure(
  answer: GraphqlAnswer,
): { message: string; retryAfter?: number; [key: string]: unknown } | undefined {
  const error = answer.errors?.[0];
  return error === undefined ? undefined : { message: error.message, ...error.extensions };
}

const REFUSED = { message: 'Invalid username or password.', code: 'UNAUTHENTICATED', blame: 'caller' };

async function failTimes(gw: TestGateway, n: number, username = 'demo', forwardedFor?: string) {
  const answers: GraphqlAnswer[] = [];
  for (let i = 0; i < n; i++) answers.push(await login(gw, username, `wrong-${i}`, forwardedFor));
  return answers;
}

describe('consecutive failures per username and client IP', () => {
  it('should block the 11th login, even with the right password, with the generic error and retryAfter', async () => {
    const gw = await gateway();
    const answers = await failTimes(gw, 10);
    expect(answers.slice(0, 9).map(failure)).toEqual(Array.from({ length: 9 }, () => REFUSED));
    // The 10th failure starts the block and already says how long it lasts.
    expect(failure(answers[9]!)).toEqual({ ...REFUSED, retryAfter: 3600 });

    emulator.resetStats();
    const blocked = failure(await login(gw, 'demo', 'demo-password'));
    expect(blocked).toMatchObject(REFUSED);
    expect(blocked?.retryAfter).toBeGreaterThan(3590);
    expect(blocked?.retryAfter).toBeLessThanOrEqual(3600);
    expect(emulator.stats().loginJson).toBe(0);

    const metrics = await (await fetch(`${gw.baseUrl}/metrics`)).text();
    expect(metrics).toContain('gateway_login_blocks_total{limit="user_ip"} 1');
  });

  it('should count an unknown username exactly like a known one', async () => {
    const gw = await gateway();
    const answers = await failTimes(gw, 11, 'nobody-by-this-name');
    expect(failure(answers[8]!)).toEqual(REFUSED);
    expect(failure(answers[10]!)).toMatchObject({ ...REFUSED, retryAfter: expect.any(Number) });
  });

  it('should clear the count on a successful login', async () => {
    const gw = await gateway();
    await failTimes(gw, 9);
    expect(failure(await login(gw, 'demo', 'demo-password'))).toBeUndefined();
    await failTimes(gw, 9);
    expect(failure(await login(gw, 'demo', 'demo-password'))).toBeUndefined();
  });

  it('should treat usernames differing only in case and spaces as one', async () => {
    const gw = await gateway();
    await failTimes(gw, 5, 'Demo');
    await failTimes(gw, 5, ' DEMO ');
    expect(failure(await login(gw, 'demo', 'demo-password'))?.retryAfter).toBeGreaterThan(0);
  });
});

describe('client IP', () => {
  it('should take the client IP from x-forwarded-for when the peer is a trusted proxy', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: '127.0.0.1' });
    await failTimes(gw, 10, 'demo', '203.0.113.7');
    expect(failure(await login(gw, 'demo', 'demo-password', '203.0.113.7'))?.retryAfter).toBeGreaterThan(0);
    // Another client behind the same proxy is not locked out by the first one's guesses.
    expect(failure(await login(gw, 'demo', 'demo-password', '203.0.113.8'))).toBeUndefined();
  });

  it('should ignore x-forwarded-for from a peer that is not a trusted proxy', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: '10.0.0.0/8' });
    await failTimes(gw, 10, 'demo', '203.0.113.7');
    // A forged header cannot buy fresh attempts: the peer address is what counts.
    expect(failure(await login(gw, 'demo', 'demo-password', '198.51.100.1'))?.retryAfter).toBeGreaterThan(0);
  });
});

describe('wider bounds', () => {
  it('should block a username guessed from many IPs (LOGIN_MAX_FAILURES_PER_USER)', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: 'loopback', LOGIN_MAX_FAILURES_PER_USER: '3' });
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) await failTimes(gw, 1, 'demo', ip);
    expect(failure(await login(gw, 'demo', 'demo-password', '203.0.113.4'))?.retryAfter).toBeGreaterThan(0);
  });

  it('should block one IP trying many usernames (LOGIN_MAX_FAILURES_PER_IP), for a day', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: 'loopback', LOGIN_MAX_FAILURES_PER_IP: '3' });
    for (const user of ['ann', 'bob', 'cy']) await failTimes(gw, 1, user, '203.0.113.9');
    const blocked = failure(await login(gw, 'demo', 'demo-password', '203.0.113.9'));
    expect(blocked?.retryAfter).toBeGreaterThan(3600);
    expect(failure(await login(gw, 'demo', 'demo-password', '203.0.113.10'))).toBeUndefined();
  });
});

describe('timing', () => {
  it('should take at least LOGIN_FAILURE_MIN_MS to refuse, whether the user exists, or is blocked', async () => {
    const gw = await gateway({ LOGIN_FAILURE_MIN_MS: '300' });
    const timed = async (username: string) => (await login(gw, username, 'wrong')).elapsedMillis;
    // Padding is a floor: none of these may answer sooner (the upstream answers far within it).
    expect(await timed('demo')).toBeGreaterThanOrEqual(290);
    expect(await timed('nobody-by-this-name')).toBeGreaterThanOrEqual(290);
    const fast = await gateway({ LOGIN_FAILURE_MIN_MS: '300', LOGIN_MAX_CONSECUTIVE_FAILURES: '1' });
    await login(fast, 'demo', 'wrong');
    expect((await login(fast, 'demo', 'wrong')).elapsedMillis).toBeGreaterThanOrEqual(290);
  });
});

describe('shared by replicas through Redis', () => {
  const redis = useRedisServer();

  it('should block the 11th failed login for one user on a second replica', async (context) => {
    const [a, b] = await redis.twoReplicas(context, gateway);
    const answers = await failTimes(a, 10);
    expect(failure(answers[9]!)).toEqual({ ...REFUSED, retryAfter: 3600 });

    emulator.resetStats();
    const onB = failure(await login(b, 'demo', 'demo-password'));
    expect(onB).toMatchObject(REFUSED);
    expect(onB?.retryAfter).toBeGreaterThan(3590);
    expect(emulator.stats().loginJson).toBe(0);

    // The counters are in Redis, under hashed usernames (no username in any key).
    const client = new Redis(redis.urlOrSkip(context));
    const keys = await client.keys('*');
    client.disconnect();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('demo');
  });

  it('should keep guarding logins while Redis is down (the in-memory insurance)', async (context) => {
    redis.urlOrSkip(context); // skipped with the others when there is no Redis, as before
    const c = await gateway({ REDIS_URL: 'redis://127.0.0.1:1' });
    const answers = await failTimes(c, 11, 'insured-user');
    expect(failure(answers[10]!)).toMatchObject({ ...REFUSED, retryAfter: expect.any(Number) });
    expect(failure(await login(c, 'demo', 'demo-password'))).toBeUndefined();
  });
});
