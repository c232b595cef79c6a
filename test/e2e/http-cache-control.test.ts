/**
 * `Cache-Control` of `/graphql` answers and the response cache's scope, end to end (the real gateway before
 * the emulator): with `CACHE_HTTP=private` a `GET` answer whose every read is of a type with a policy says
 * `private, max-age=<the least freshness left>` with `Vary: Authorization`; an undeclared type, an error, a
 * `POST`, an answer that read nothing upstream stay `no-store`; nothing is ever `public`. By default
 * (`CACHE_HTTP=no-store`), and with the cache off, every answer is `no-store`.
 */
import { describe, expect, it } from 'vitest';
import { useHarness, type Harness } from '../support/gateway-harness.ts';

const LOAN = 'com.example.LoanType';
const CUSTOMER = 'com.example.Customer';
// LoanType shared in its organization for 60 s, Customer the account's for 30 s, Order never cached.
const POLICIES = `${LOAN}=60:PUBLIC,${CUSTOMER}=30:PRIVATE`;

const LOAN_TYPES = '{ loanTypes(first: 2) { nodes { id loanType } } }';
const LOAN_AND_CUSTOMERS =
  '{ loanTypes(first: 2) { nodes { id } } customers(first: 2) { nodes { id name } } }';
const GENERIC_LOANS = `{ objects(objectName: "${LOAN}", first: 2) { nodes { id data } } }`;
const ORDERS = '{ orders(first: 2) { nodes { id number } } }';
const LOANS_AND_ORDERS = '{ loanTypes(first: 2) { nodes { id } } orders(first: 2) { nodes { id } } }';
const LOANS_AND_AN_ERROR = `{ loanTypes(first: 2) { nodes { id } } object(objectName: "com.example.Nope", id: "x") { id } }`;
const ME = '{ me { username } }';

/** GETs `query` with the caller's token; answers the response, its body read. */
async function get(harness: Harness, query: string, token: string | undefined): Promise<Response> {
  const response = await harness.fetch(`/graphql?query=${encodeURIComponent(query)}`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  return response;
}

/** The `max-age` of a `private, max-age=N` answer; fails on any other `Cache-Control`. */
function privateMaxAge(response: Response): number {
  const value = response.headers.get('cache-control') ?? '';
  expect(value).toMatch(/^private, max-age=\d+$/);
  expect(response.headers.get('vary') ?? '').toMatch(/\bAuthorization\b/);
  return Number(/max-age=(\d+)/.exec(value)?.[1]);
}

describe('Cache-Control with CACHE_HTTP=private', () => {
  const h = useHarness({
    env: { CACHE: 'on', CACHE_POLICIES: POLICIES, CACHE_HTTP: 'private' },
    listen: false,
  });

  it('lets the caller keep a GET answer of declared types, privately, for the least maxAge', async () => {
    const token = await h.login();
    // Read upstream, then from the cache: private both times, never beyond the type's maxAge.
    for (const query of [LOAN_TYPES, LOAN_TYPES, GENERIC_LOANS]) {
      const maxAge = privateMaxAge(await get(h, query, token));
      expect(maxAge).toBeGreaterThanOrEqual(1);
      expect(maxAge).toBeLessThanOrEqual(60);
    }
    // PUBLIC within the organization and PRIVATE alike: private; the smaller maxAge wins.
    const both = privateMaxAge(await get(h, LOAN_AND_CUSTOMERS, token));
    expect(both).toBeGreaterThanOrEqual(1);
    expect(both).toBeLessThanOrEqual(30);
  });

  it('keeps no-store for an undeclared type, an error, a POST, a read of nothing and no session', async () => {
    const token = await h.login();
    const answers = [
      await get(h, ORDERS, token),
      await get(h, LOANS_AND_ORDERS, token),
      await get(h, LOANS_AND_AN_ERROR, token),
      await get(h, ME, token),
      await get(h, LOAN_TYPES, undefined),
      await h.post(LOAN_TYPES, {}, { authorization: `Bearer ${token}` }),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('vary') ?? '').not.toMatch(/Authorization/);
    }
    // The POST read what a GET may keep: the method alone keeps it no-store.
    expect((answers.at(-1) as { errors?: unknown }).errors).toBeUndefined();
  });

  it('never says public, whatever the scope', async () => {
    const token = await h.login();
    for (const query of [LOAN_TYPES, LOAN_AND_CUSTOMERS, GENERIC_LOANS, ORDERS]) {
      expect((await get(h, query, token)).headers.get('cache-control')).not.toMatch(/public/);
    }
  });
});

describe('Cache-Control by default (CACHE_HTTP=no-store), and with the cache off', () => {
  const byDefault = useHarness({ env: { CACHE: 'on', CACHE_POLICIES: POLICIES }, listen: false });
  const off = useHarness({
    env: { CACHE: 'off', CACHE_POLICIES: POLICIES, CACHE_HTTP: 'private' },
    listen: false,
  });

  it('says no-store on every GET answer, declared types included', async () => {
    for (const harness of [byDefault, off]) {
      const token = await harness.login();
      for (const query of [LOAN_TYPES, LOAN_TYPES, LOAN_AND_CUSTOMERS]) {
        const response = await get(harness, query, token);
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    }
  });
});
