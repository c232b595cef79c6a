/**
 * Shared resources: the login limiter's counters in total. A caller with many addresses (an IPv6
 * host owns a /64) fails logins on invented usernames from a new address each time; every failure used to
 * add a few counters that live a day. Now the process holds at most `LOGIN_MAX_TRACKED_COUNTERS` of them
 * (`gateway_login_tracked_counters`), an attacker blocked before the flood stays blocked, and a real user
 * logs in from an address never seen.
 */
import { expect, it } from 'vitest';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOGIN, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';

const { gateway } = useGatewayPool();

const MAX = 200;
const FLOOD = 1_200;
const AT_ONCE = 20;

function login(url: string, username: string, password: string, ip: string): Promise<GraphqlAnswer> {
  return postGraphql(url, LOGIN, { username, password }, { 'x-forwarded-for': ip });
}

function trackedCounters(metrics: string): number {
  return Number(/^gateway_login_tracked_counters (\d+)$/m.exec(metrics)?.[1] ?? Number.NaN);
}

it('should hold the login counters to LOGIN_MAX_TRACKED_COUNTERS under failures from many addresses, keep an earlier block and let a real user in', async () => {
  const gw = await gateway({
    TRUSTED_PROXIES: 'loopback',
    LOGIN_MAX_TRACKED_COUNTERS: String(MAX),
    LOGIN_FAILURE_MIN_MS: '0',
  });
  // An attacker guessing `ops` from one address is blocked before the flood.
  for (let i = 0; i < 10; i++) await login(gw.graphqlUrl, 'ops', `guess-${i}`, '203.0.113.50');
  const blockedBefore = await login(gw.graphqlUrl, 'ops', 'ops-password', '203.0.113.50');
  expect(blockedBefore.errors?.[0]?.extensions?.retryAfter).toBeGreaterThan(0);

  for (let start = 0; start < FLOOD; start += AT_ONCE) {
    await Promise.all(
      Array.from({ length: AT_ONCE }, (_, offset) => {
        const i = start + offset;
        return login(
          gw.graphqlUrl,
          `invented-${i}`,
          'nope',
          `2001:db8:${(i >> 8).toString(16)}::${(i & 255).toString(16)}`,
        );
      }),
    );
  }

  const metrics = await (await fetch(`${gw.baseUrl}/metrics`)).text();
  const tracked = trackedCounters(metrics);
  // A few failures at once may each add their few counters past the line they found below it.
  expect(tracked).toBeGreaterThan(MAX / 2);
  expect(tracked).toBeLessThanOrEqual(MAX + 4 * AT_ONCE);

  const stillBlocked = await login(gw.graphqlUrl, 'ops', 'ops-password', '203.0.113.50');
  expect(stillBlocked.errors?.[0]?.extensions?.retryAfter).toBeGreaterThan(0);

  const real = await login(gw.graphqlUrl, 'demo', 'demo-password', '2001:db8:ffff::1');
  expect(real.errors).toBeUndefined();
  expect((real.data?.login as { token?: string } | undefined)?.token).toEqual(expect.any(String));
});
