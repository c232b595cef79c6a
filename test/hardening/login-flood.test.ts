/**
 * Logins' own share of the upstream (`login-share.ts`, and one session's share of the bulkhead for all
 * logins): one connection pipelining hundreds of logins with the right password, from one address, reaches
 * the upstream only as often as the share allows, is answered `TOO_MANY_REQUESTS` (`reason: login_share`)
 * beyond it, and another user's reads from another address are all served meanwhile (refusals counted, not
 * milliseconds).
 */
import { describe, expect, it } from 'vitest';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOAN_TYPES, LOGIN } from '../support/post-graphql.ts';
import { pipelined, rawJsonPost, type PipelinedResponse } from '../support/raw-http-client.ts';

// The share at its defaults (the harness widens it for the other tests).
const DEFAULT_SHARE = {
  LOGIN_MAX_PER_MINUTE_PER_ADDRESS: '120',
  LOGIN_MAX_PER_MINUTE_PER_ACCOUNT: '30',
  LOGIN_MAX_CONCURRENT_PER_ADDRESS: '8',
  LOGIN_MAX_CONCURRENT_PER_ACCOUNT: '4',
  // Room for the flood on one connection: only the login share is under test here.
  MAX_PIPELINED_REQUESTS: '1000',
};
const { emulator, gateway } = useGatewayPool({ env: DEFAULT_SHARE });

interface Answer {
  data?: { login?: { token?: string } | null; objects?: { totalCount?: number } | null } | null;
  errors?: { extensions?: { code?: string; reason?: string; retryAfter?: number } }[];
}
const answerOf = (response: PipelinedResponse) => JSON.parse(response.body) as Answer;
const login = (username: string, password: string) =>
  rawJsonPost('/graphql', { query: LOGIN, variables: { username, password } });

describe('a flood of successful logins from one address', () => {
  it('should reach the upstream only as far as the share allows, and leave another user’s reads served', async () => {
    const gw = await gateway();
    const port = Number(new URL(gw.graphqlUrl).port);
    const [victimLogin] = await pipelined(port, [login('admin', 'admin-password')], '127.0.0.3');
    const token = answerOf(victimLogin!).data?.login?.token;
    expect(token).toEqual(expect.any(String));
    const read = rawJsonPost('/graphql', { query: LOAN_TYPES }, { authorization: `Bearer ${token ?? ''}` });

    emulator.resetStats();
    const floodStarted = Date.now();
    const [flood, reads] = await Promise.all([
      pipelined(
        port,
        Array.from({ length: 400 }, () => login('demo', 'demo-password')),
        '127.0.0.2',
      ),
      pipelined(
        port,
        Array.from({ length: 40 }, () => read),
        '127.0.0.3',
      ),
    ]);
    // The share is per minute of the clock (src/auth/login-share.ts): a flood that crosses a minute's end, by
    // chance or on a machine loaded enough to make it slow, meets a new minute's share. The minutes it met:
    const windows = Math.floor(Date.now() / 60_000) - Math.floor(floodStarted / 60_000) + 1;

    // Every read of the other user was served: no refusal of any kind.
    expect(reads).toHaveLength(40);
    expect(reads.filter((response) => answerOf(response).errors !== undefined)).toEqual([]);
    // The flood got at most LOGIN_MAX_PER_MINUTE_PER_ACCOUNT logins upstream a minute; the rest were told to wait.
    expect(flood).toHaveLength(400);
    const signedIn = flood.filter((response) => answerOf(response).data?.login?.token !== undefined);
    expect(emulator.stats().loginJson).toBe(signedIn.length);
    expect(signedIn.length).toBeGreaterThan(0);
    expect(signedIn.length).toBeLessThanOrEqual(30 * windows);
    const refusals = flood.filter((response) => answerOf(response).data?.login?.token === undefined);
    for (const refusal of refusals) {
      expect(answerOf(refusal).errors?.[0]?.extensions).toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        reason: 'login_share',
        retryAfter: expect.any(Number),
      });
    }
  });

  it('should hold one address spraying many accounts to LOGIN_MAX_PER_MINUTE_PER_ADDRESS', async () => {
    const gw = await gateway();
    const port = Number(new URL(gw.graphqlUrl).port);
    emulator.resetStats();
    const sprayStarted = Date.now();
    const spray = await pipelined(
      port,
      Array.from({ length: 300 }, (_, i) => login(`someone-${i}`, 'guess')),
      '127.0.0.4',
    );
    expect(spray).toHaveLength(300);
    // Per minute of the clock, as above: the minutes the spray met.
    const windows = Math.floor(Date.now() / 60_000) - Math.floor(sprayStarted / 60_000) + 1;
    expect(emulator.stats().loginJson).toBeLessThanOrEqual(120 * windows);
  });
});
