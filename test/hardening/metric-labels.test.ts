/**
 * Metric label sets are fixed by the server, not the caller. The attack: 205 junk operation
 * names from an anonymous caller used to take every one of the 200 operation-name series, so every real
 * operation counted as `operation="other"` from then on. Now a name counts only when a trusted document or
 * a user the upstream accepted vouches for it, one user at most {@link MAX_OPERATION_NAMES_PER_USER}.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_OPERATION_NAMES,
  MAX_OPERATION_NAMES_PER_USER,
  MAX_OPERATION_SERIES,
  MAX_OUTCOMES,
} from '../../src/observability/metrics.ts';
import { startHarness, type Harness } from '../support/gateway-harness.ts';
import { codesOf, type GraphqlAnswer } from '../support/post-graphql.ts';

const JUNK = 205;
const LOGIN = (name: string) =>
  `mutation ${name}($username: String!, $password: String!) { login(username: $username, password: $password) { token } }`;
const LOAN_TYPES = 'query LoanTypes { loanTypes(first: 1) { totalCount } }';
const PUBLIC_ME = 'query PublicMe { me { username } }';

let dir: string;
let h: Harness;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'metric-labels-'));
  const manifest = join(dir, 'persisted-documents.json');
  const id = `sha256:${createHash('sha256').update(PUBLIC_ME).digest('hex')}`;
  await writeFile(manifest, JSON.stringify({ [id]: PUBLIC_ME }));
  h = await startHarness({ listen: false, env: { TRUSTED_DOCUMENTS: manifest } });
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function loginAs(username: string, operationName: string): Promise<string> {
  const answer = await h.post(LOGIN(operationName), { username, password: `${username}-password` });
  const token = (answer.data?.login as { token?: string } | undefined)?.token;
  if (token === undefined) throw new Error(`login of ${username} failed: ${JSON.stringify(answer.errors)}`);
  return token;
}

/** Every series of `family` as its label objects. */
async function series(family: string): Promise<Partial<Record<string, string | number>>[]> {
  const metric = await h.gateway.metrics.registry.getSingleMetric(family)?.get();
  return (metric?.values ?? []).map((value) => value.labels);
}

async function countOf(operation: string): Promise<number> {
  const metric = await h.gateway.metrics.registry.getSingleMetric('gateway_graphql_operations_total')?.get();
  return (metric?.values ?? [])
    .filter((value) => value.labels.operation === operation)
    .reduce((sum, value) => sum + value.value, 0);
}

function expectAnswered(answer: GraphqlAnswer): void {
  expect(answer.status).toBe(200);
  expect(answer.errors).toBeUndefined();
  expect(answer.data).toEqual({ __typename: 'Query' });
}

describe('junk operation names', () => {
  it('should answer an anonymous caller’s junk names but count them as other', async () => {
    for (let i = 0; i < JUNK; i++) expectAnswered(await h.post(`query AnonJunk${i} { __typename }`));
    // Names that never validate, and names posing as the server's own labels, count for nothing either.
    const invalid = await h.post('query AnonInvalid { nope }', {}, {});
    expect(codesOf(invalid)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expectAnswered(await h.post('query other { __typename }'));
    expectAnswered(await h.post('query anonymous { __typename }'));

    const names = (await series('gateway_graphql_operations_total')).map((s) => s.operation);
    expect(names.filter((name) => String(name).startsWith('Anon'))).toEqual([]);
    // A named operation that fails validation is a named one nobody vouched for: `other`, as the README
    // says, not `anonymous`; with the junk and the two impostors, 208.
    expect(await countOf('other')).toBe(JUNK + 3);
  });

  it('should let one session bring only its share of names, and answer all of its requests', async () => {
    // Its own login is the first name of its share.
    const token = await loginAs('ops', 'OpsLogin');
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < JUNK; i++) {
      expectAnswered(await h.post(`query SessionJunk${i} { __typename }`, {}, auth));
    }
    // Logins the upstream accepts vouch for their own user's share only.
    for (let i = 0; i < 5; i++) await loginAs('ops', `LoginJunk${i}`);

    const names = new Set((await series('gateway_graphql_operations_total')).map((s) => String(s.operation)));
    const brought = [...names].filter((name) => /^(?:OpsLogin|SessionJunk\d+|LoginJunk\d+)$/.test(name));
    expect(brought).toHaveLength(MAX_OPERATION_NAMES_PER_USER);
    expect(brought).toContain('OpsLogin');
  });

  it('should still count another user’s real operations, logins and trusted documents under their names', async () => {
    // A real login, anonymous until it succeeds.
    const token = await loginAs('demo', 'SignIn');
    const auth = { authorization: `Bearer ${token}` };
    const answer = await h.post(LOAN_TYPES, {}, auth);
    expect(codesOf(answer)).toEqual([]);
    expect(answer.data).toEqual({ loanTypes: { totalCount: expect.any(Number) } });
    // A trusted document's name counts whoever sends it, anonymous callers included.
    const me = await h.post(PUBLIC_ME);
    expect(me.data).toEqual({ me: null });

    expect(await countOf('LoanTypes')).toBe(1);
    expect(await countOf('SignIn')).toBe(1);
    expect(await countOf('PublicMe')).toBe(1);
  });

  it('should keep every label set of every metric family bounded', async () => {
    const families = await h.gateway.metrics.registry.getMetricsAsJSON();
    const operations = await series('gateway_graphql_operations_total');
    expect(operations.length).toBeLessThanOrEqual(MAX_OPERATION_SERIES + 4 * MAX_OUTCOMES);
    for (const family of families) {
      const values = new Map<string, Set<string>>();
      for (const { labels } of family.values) {
        for (const [label, value] of Object.entries(labels)) {
          const seen = values.get(label) ?? new Set<string>();
          seen.add(String(value));
          values.set(label, seen);
        }
      }
      for (const [label, seen] of values) {
        // The operation name: the vouched-for names (one trusted) plus `other` and `anonymous`; any other
        // label is a server-fixed set (codes, upstream operations, loaders, histogram buckets).
        const bound = label === 'operation' ? MAX_OPERATION_NAMES + 1 + 2 : MAX_OUTCOMES;
        expect(seen.size, `${family.name}{${label}}`).toBeLessThanOrEqual(bound);
        for (const value of seen) expect(value, `${family.name}{${label}}`).not.toMatch(/^AnonJunk/);
      }
    }
  });
});

describe('a login renamed by FEDERATION_NAME_PREFIX', () => {
  let federated: Harness;
  beforeAll(async () => {
    federated = await startHarness({
      listen: false,
      upstream: h.emulator,
      env: { FEDERATION: 'true', FEDERATION_NAME_PREFIX: 'Objects' },
    });
  });
  afterAll(async () => {
    await federated.close();
  });

  it('should admit the name of a login answered through the renamed field', async () => {
    const answer = await federated.post(
      'mutation PrefixedSignIn($username: String!, $password: String!) { objectsLogin(username: $username, password: $password) { token } }',
      { username: 'demo', password: 'demo-password' },
    );
    expect(codesOf(answer)).toEqual([]);
    expect((answer.data?.objectsLogin as { token?: unknown } | undefined)?.token).toEqual(expect.any(String));
    const metric = await federated.gateway.metrics.registry
      .getSingleMetric('gateway_graphql_operations_total')
      ?.get();
    const names = (metric?.values ?? []).map((value) => value.labels.operation);
    // Before, the plugin read `data.login` only: the renamed login vouched for nothing and counted as other.
    expect(names).toContain('PrefixedSignIn');
    expect(names).not.toContain('other');
  });
});
