/**
 * One account's guess budget, whichever login method the guesses use. docs/login-protection.md: "guesses at
 * one account from unknown clients, whatever the number of addresses, are at most
 * `LOGIN_MAX_FAILURES_PER_USER` per window". The front-end logs in with the default JSON login, whose lookup
 * (one form login with the same credentials) confirms the name's `userId`; but it records that only for JSON
 * logins (`linkJson`), so the form login under the very same username still counts under the bare name
 * (`accountOf`: no link): an attacker guessing `demo` through both methods has two budgets. Measured: 40
 * guesses at `demo`'s password reached the upstream for a budget of 20 (and 60 with the mobile number's
 * form login beside them, counted apart until that name itself logs in).
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

it('should send no more guesses at one account upstream than LOGIN_MAX_FAILURES_PER_USER when they come through both login methods', async () => {
  const gw = await gateway({ LOGIN_MAX_FAILURES_PER_USER: String(BUDGET) });
  // The account's owner logs in as the front-end does: the default (JSON) login, whose lookup confirms it.
  const owner = await login(gw, { password: 'demo-password', from: '198.51.100.10' });
  expect(owner.errors).toBeUndefined();
  emulator.resetStats();
  // Wrong passwords for `demo`, each from an address of its own, half by the JSON login and half by the form
  // login, in bursts of 16.
  const guesses = Array.from({ length: 4 * BUDGET }, (_, k) => ({
    password: `guess-${k}`,
    from: `203.0.113.${k + 1}`,
    method: k % 2 === 0 ? ('JSON' as const) : ('FORM' as const),
  }));
  for (let start = 0; start < guesses.length; start += 16) {
    await Promise.all(guesses.slice(start, start + 16).map((guess) => login(gw, guess)));
  }
  const { loginJson, loginForm } = emulator.stats();
  console.info(`guesses at demo reaching the upstream: ${loginJson} JSON, ${loginForm} form`);
  expect(loginJson + loginForm).toBeLessThanOrEqual(BUDGET);
}, 60_000);
