/**
 * Logins nobody can aim: a known device is never refused for what other clients do (the per-account share
 * counts unknown clients only), a device token is known only for the account the upstream answered for it
 * (`Ops` and `ops` are two accounts of a case-sensitive upstream), and the guess budget holds across two
 * replicas sharing Redis with guessers at both at once (a refused attempt's give-back never undoes a block).
 */
import { describe, expect, it } from 'vitest';
import { type TestGateway } from '../support/gateway-harness.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';
import { redisFallbacks, useRedisServer } from '../support/servers/redis-server.ts';
import { CASE_TWIN_USER as TWIN } from '../support/case-twin-user.ts';

const LOGIN = `mutation Login($username: String!, $password: String!, $deviceToken: String) {
  login(username: $username, password: $password, deviceToken: $deviceToken) { token deviceToken }
}`;

const { emulator, gateway } = useGatewayPool({
  env: { TRUSTED_PROXIES: 'loopback' },
  emulator: { users: [TWIN] },
});

interface Attempt {
  username?: string;
  password?: string;
  from: string;
  deviceToken?: string;
}

function login(gw: TestGateway, attempt: Attempt): Promise<GraphqlAnswer> {
  const { username = 'demo', password = 'demo-password', from, deviceToken } = attempt;
  return postGraphql(gw.graphqlUrl, LOGIN, { username, password, deviceToken }, { 'x-forwarded-for': from });
}

function deviceTokenOf(answer: GraphqlAnswer): string {
  const payload = answer.data?.login as { deviceToken?: unknown } | undefined;
  if (typeof payload?.deviceToken !== 'string')
    throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
  return payload.deviceToken;
}

const reasonOf = (answer: GraphqlAnswer) => answer.errors?.[0]?.extensions?.reason;
const addressOf = (i: number) => `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;

describe('the per-account login share', () => {
  it('should be spent by unknown clients only: the known device logs in while others fill it', async () => {
    const gw = await gateway({ LOGIN_MAX_PER_MINUTE_PER_ACCOUNT: '5' });
    const device = deviceTokenOf(await login(gw, { from: '198.51.100.10' }));
    // Wrong passwords from 20 addresses, spelled as the account's name folds: the account's share is spent.
    const spellings = ['demo', 'DEMO', ' demo', 'Demo'];
    const flood = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        login(gw, { username: spellings[i % 4], password: `guess-${i}`, from: addressOf(i) }),
      ),
    );
    expect(flood.map(reasonOf)).toContain('login_share');
    // An unknown client with the right password meets the spent share; the known device does not.
    expect(reasonOf(await login(gw, { from: '198.51.100.11' }))).toBe('login_share');
    const known = await login(gw, { from: '198.51.100.10', deviceToken: device });
    expect(known.errors).toBeUndefined();
  });
});

describe('a device token of a case-variant twin', () => {
  it('should not be known for the other account: its guesses are an unknown client’s', async () => {
    const gw = await gateway();
    const from = '198.51.100.40';
    const twinDevice = deviceTokenOf(await login(gw, { username: 'Ops', password: TWIN.password, from }));
    emulator.resetStats();
    const answers: GraphqlAnswer[] = [];
    for (let i = 0; i < 15; i++) {
      answers.push(
        await login(gw, { username: 'ops', password: `guess-${i}`, from, deviceToken: twinDevice }),
      );
    }
    // Counted as an unknown client of `ops` at this address: at most LOGIN_MAX_CONSECUTIVE_FAILURES guesses.
    expect(emulator.stats().loginJson).toBeLessThanOrEqual(10);
    expect(answers.at(-1)?.errors?.[0]?.extensions?.retryAfter).toEqual(expect.any(Number));
    // The twin's own device still logs in to its own account.
    const own = await login(gw, { username: 'Ops', password: TWIN.password, from, deviceToken: twinDevice });
    expect(own.errors).toBeUndefined();
  });
});

describe('one address however spelled', () => {
  it('should count the IPv4-mapped, ported and plain spellings of one address as one client', async () => {
    const gw = await gateway();
    const spellings = ['203.0.113.7', '::ffff:203.0.113.7', '203.0.113.7:999', '::FFFF:cb00:7107'];
    emulator.resetStats();
    for (let i = 0; i < 12; i++) {
      await login(gw, { password: `guess-${i}`, from: spellings[i % spellings.length] ?? '' });
    }
    // LOGIN_MAX_CONSECUTIVE_FAILURES for this account from this one address, whatever the spelling.
    expect(emulator.stats().loginJson).toBeLessThanOrEqual(10);
    const plain = await login(gw, { from: '203.0.113.7' });
    expect(plain.errors?.[0]?.extensions?.retryAfter).toEqual(expect.any(Number));
  });
});

describe('two replicas sharing Redis, guessed at both at once', () => {
  const redis = useRedisServer();

  it('should never send more guesses upstream than LOGIN_MAX_FAILURES_PER_USER, round after round', async (context) => {
    const budget = 20;
    const env = {
      LOGIN_MAX_FAILURES_PER_USER: String(budget),
      // The shares would refuse most guesses before they reach the budgets: opened wide, so every guess races.
      LOGIN_MAX_PER_MINUTE_PER_ACCOUNT: '100000',
      LOGIN_MAX_PER_MINUTE_PER_ADDRESS: '100000',
      LOGIN_MAX_CONCURRENT_PER_ACCOUNT: '10000',
      LOGIN_MAX_CONCURRENT_PER_ADDRESS: '10000',
      SESSION_SECRET: 'k'.repeat(40),
    };
    const [a, b] = await redis.twoReplicas(context, gateway, env);
    for (let round = 0; round < 3; round++) {
      const username = `victim-${round}`;
      emulator.resetStats();
      const bypassesBefore = await redisFallbacks(a, b);
      let next = 0;
      const guesser = async (gw: TestGateway) => {
        while (next < 240) {
          const k = next++;
          await login(gw, { username, password: `guess-${k}`, from: addressOf(k) });
        }
      };
      // 24 guessers, half at each replica, each with its own addresses.
      await Promise.all(Array.from({ length: 24 }, (_, i) => guesser(i % 2 === 0 ? a : b)));
      // Redis shared the budget unless a replica bypassed it meanwhile: then each holds it on its own.
      const bypassed = (await redisFallbacks(a, b)) > bypassesBefore;
      expect(emulator.stats().loginJson).toBeLessThanOrEqual(bypassed ? 2 * budget : budget);
    }
  });
});
