/**
 * One account's guess budget, whichever login method the guesses use. docs/login-protection.md: "guesses at
 * one account from unknown clients, whatever the number of addresses, are at most
 * `LOGIN_MAX_FAILURES_PER_USER` per window". A JSON login's lookup (one form login with the same
 * credentials) confirmed the name's `userId` for JSON logins only, so form guesses under the very same
 * username still counted under the bare name; and after a form login, JSON guesses did. An attacker
 * guessing `demo` through both methods had two budgets: 40 guesses reached the upstream for a budget of 20
 * (found by an attacker's pass, at two replicas sharing Redis: 60 with the mobile number's form login beside
 * them, which counts apart until that name itself logs in, as documented).
 */
import { expect, it } from 'vitest';
import { type TestGateway } from '../support/gateway-harness.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';

const LOGIN = `mutation Login($username: String!, $password: String!, $method: LoginMethod, $deviceToken: String) {
  login(username: $username, password: $password, method: $method, deviceToken: $deviceToken) { token deviceToken }
}`;
const BUDGET = 20;

const { emulator, gateway } = useGatewayPool({ env: { TRUSTED_PROXIES: 'loopback' } });

function login(
  gw: TestGateway,
  attempt: { password: string; from: string; method?: 'JSON' | 'FORM'; deviceToken?: string },
): Promise<GraphqlAnswer> {
  const { password, from, method, deviceToken } = attempt;
  return postGraphql(
    gw.graphqlUrl,
    LOGIN,
    { username: 'demo', password, method, deviceToken },
    { 'x-forwarded-for': from },
  );
}

it.each(['JSON', 'FORM'] as const)(
  'should send no more guesses at one account upstream than LOGIN_MAX_FAILURES_PER_USER through both login methods, after its owner’s %s login',
  async (ownerMethod) => {
    const gw = await gateway({ LOGIN_MAX_FAILURES_PER_USER: String(BUDGET) });
    // The account's owner logs in (the front-end's default is JSON, whose lookup confirms the account).
    const owner = await login(gw, { password: 'demo-password', from: '198.51.100.10', method: ownerMethod });
    expect(owner.errors).toBeUndefined();
    emulator.resetStats();
    // Wrong passwords for `demo`, each from an address of its own, half by the JSON login and half by the
    // form login, in bursts of 16.
    const guesses = Array.from({ length: 4 * BUDGET }, (_, k) => ({
      password: `guess-${k}`,
      from: `203.0.113.${k + 1}`,
      method: k % 2 === 0 ? ('JSON' as const) : ('FORM' as const),
    }));
    for (let start = 0; start < guesses.length; start += 16) {
      await Promise.all(guesses.slice(start, start + 16).map((guess) => login(gw, guess)));
    }
    const { loginJson, loginForm } = emulator.stats();
    expect(loginJson + loginForm, `${loginJson} JSON, ${loginForm} form`).toBeLessThanOrEqual(BUDGET);
  },
  60_000,
);
