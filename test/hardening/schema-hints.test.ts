/**
 * No schema hints when introspection is off. graphql-js answers a misspelling with the names it resembles
 * (`Did you mean "number"?`, `Did you mean the enum value "matches"?`): with introspection off, that hands
 * a stranger the schema one guess at a time. A production gateway masks the suggestion in every kind of
 * error (validation of fields, arguments, enum values, input fields and types; coercion of variables) and
 * keeps the rest of the message and its code; a development gateway, whose schema is public anyway, keeps
 * the hints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { codesOf, loginDemo, type GraphqlAnswer } from '../support/post-graphql.ts';

/** One misspelling per kind of error, each of which graphql-js answers with a suggestion. */
const CASES: readonly {
  kind: string;
  query: string;
  variables?: Record<string, unknown>;
  code: string;
  /** What the message still says without its hint. */
  says: RegExp;
  /** The start of the hint a development gateway gives. */
  hint: string;
}[] = [
  {
    kind: 'a field',
    query: '{ me { usernam } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Cannot query field "usernam" on type "Session"\.$/,
    hint: 'Did you mean "username"',
  },
  {
    kind: 'a typed field',
    query: '{ orders(first: 1) { nodes { numbr } } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Cannot query field "numbr" on type "Order"\.$/,
    hint: 'Did you mean "number"',
  },
  {
    kind: 'a field of a referenced typed object',
    query: '{ orders(first: 1) { nodes { customer { nam } } } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Cannot query field "nam" on type "Customer"\.$/,
    hint: 'Did you mean "name"',
  },
  {
    kind: 'an argument',
    query: '{ orders(frist: 1) { totalCount } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Unknown argument "frist" on field "Query\.orders"\.$/,
    hint: 'Did you mean "first"',
  },
  {
    kind: 'a directive argument',
    query: '{ me @include(iff: true) { username } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Unknown argument "iff" on directive "@include"\.$/,
    hint: 'Did you mean "if"',
  },
  {
    kind: 'an enum value literal',
    query:
      '{ objects(objectName: "com.example.Order", filter: { criteria: [{ fieldName: "number", operator: matchs, value: "x" }] }) { totalCount } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Value "matchs" does not exist in "FilterOperator" enum\.$/,
    hint: 'Did you mean the enum value "matches"',
  },
  {
    kind: 'an input field literal',
    query: '{ orders(where: { numbr: { equals: "ORD-1" } }) { totalCount } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Field "numbr" is not defined by type "OrderWhere"\.$/,
    hint: 'Did you mean "number"',
  },
  {
    kind: 'a variable’s type',
    query: 'query ($where: OrderWher) { orders(where: $where) { totalCount } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Unknown type "OrderWher"\.$/,
    hint: 'Did you mean "OrderWhere"',
  },
  {
    kind: 'a fragment’s type',
    query: '{ ...F } fragment F on Quer { __typename }',
    code: 'GRAPHQL_VALIDATION_FAILED',
    says: /Unknown type "Quer"\.$/,
    hint: 'Did you mean "Query"',
  },
  {
    kind: 'an enum value in the variables',
    query:
      'query ($op: FilterOperator!) { objects(objectName: "com.example.Order", filter: { criteria: [{ fieldName: "number", operator: $op, value: "x" }] }) { totalCount } }',
    variables: { op: 'matchs' },
    code: 'BAD_USER_INPUT',
    says: /Value "matchs" does not exist in "FilterOperator" enum\.$/,
    hint: 'Did you mean the enum value "matches"',
  },
  {
    kind: 'an input field in the variables',
    query: 'query ($where: OrderWhere) { orders(where: $where) { totalCount } }',
    variables: { where: { numbr: { equals: 'ORD-1' } } },
    code: 'BAD_USER_INPUT',
    says: /Field "numbr" is not defined by type "OrderWhere"\.$/,
    hint: 'Did you mean "number"',
  },
  {
    kind: 'a nested input field in the variables',
    query: 'mutation ($input: OrderInput!) { saveOrder(input: $input) { id } }',
    variables: { input: { number: 'ORD-9', totl: 3 } },
    code: 'BAD_USER_INPUT',
    says: /Field "totl" is not defined by type "OrderInput"\.$/,
    hint: 'Did you mean "total"',
  },
];

let emulator: RunningEmulator;
let production: TestGateway;
let development: TestGateway;
let productionAuth: Record<string, string>;
let developmentAuth: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  production = await startGateway({
    upstreamUrl: emulator.url,
    listen: false,
    env: { NODE_ENV: 'production', SESSION_SECRET: 'schema-hints-test-secret-0123456789abcdef' },
  });
  development = await startGateway({ upstreamUrl: emulator.url, listen: false });
  const login = async (gateway: TestGateway) => {
    const answer = await gateway.post(
      'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { token } }',
      { u: 'demo', p: 'demo-password' },
    );
    const token = (answer.data?.login as { token?: string } | undefined)?.token;
    if (token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
    return { authorization: `Bearer ${token}` };
  };
  productionAuth = await login(production);
  developmentAuth = await login(development);
});
afterAll(async () => {
  await production.close();
  await development.close();
  await emulator.close();
});

/** The whole answer as text: a hint may hide in any message or extension. */
const wire = (answer: GraphqlAnswer) => JSON.stringify({ data: answer.data, errors: answer.errors });

describe('a production gateway (introspection off)', () => {
  it('should refuse introspection, so that hints would be the only way to read the schema', async () => {
    const answer = await production.post('{ __schema { types { name } } }', {}, productionAuth);
    expect(codesOf(answer)).toEqual(['INTROSPECTION_DISABLED']);
  });

  it.each(CASES)('should mask the suggestion for $kind', async ({ query, variables, code, says }) => {
    for (const headers of [{}, productionAuth]) {
      const answer = await production.post(query, variables ?? {}, headers);
      // A directive's misspelt argument is also a missing one: two errors, one code.
      expect(new Set(codesOf(answer))).toEqual(new Set([code]));
      expect(answer.errors?.[0]?.extensions?.blame).toBe('caller');
      expect(answer.errors?.[0]?.message).toMatch(says);
      expect(wire(answer)).not.toMatch(/did you mean/i);
    }
  });

  it('should answer every error of a request with many misspellings without a hint', async () => {
    const answer = await production.post(
      '{ me { usernam userI } orders(frist: 1, wher: {}) { totalCont } __typenam }',
      {},
      productionAuth,
    );
    expect(answer.errors?.length).toBeGreaterThanOrEqual(6);
    expect(wire(answer)).not.toMatch(/did you mean/i);
  });
});

describe('a development gateway (introspection on)', () => {
  it.each(CASES)('should keep the suggestion for $kind', async ({ query, variables, code, says, hint }) => {
    const answer = await development.post(query, variables ?? {}, developmentAuth);
    expect(new Set(codesOf(answer))).toEqual(new Set([code]));
    const message = answer.errors?.[0]?.message ?? '';
    expect(message).toContain(` ${hint}`);
    expect(message.slice(0, message.indexOf(` ${hint}`))).toMatch(says);
  });
});

describe('introspection decides, not the environment', () => {
  it('should mask hints in development too when INTROSPECTION=false', async () => {
    const closed = await startGateway({
      upstreamUrl: emulator.url,
      listen: false,
      env: { INTROSPECTION: 'false' },
    });
    try {
      const token = await loginDemo(closed.graphqlUrl).catch(() => undefined);
      const auth: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
      for (const { query, variables } of CASES) {
        expect(wire(await closed.post(query, variables ?? {}, auth))).not.toMatch(/did you mean/i);
      }
    } finally {
      await closed.close();
    }
  });
});
