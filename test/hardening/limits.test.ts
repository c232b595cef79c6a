/**
 * Query limits: hostile operations are refused with a code that names the limit, ordinary operations (the
 * ones the tests, the README and the landing page send) pass, and every limit is a setting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Kind, getIntrospectionQuery, parse, print, type DocumentNode } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DOCUMENT } from '../../src/app/graphql-route.ts';
import { useHarness } from '../support/gateway-harness.ts';
import * as operations from '../support/operations.ts';
import * as typedOperations from '../support/typed-operations.ts';
import { codesOf } from '../support/post-graphql.ts';

const LOAN = 'com.example.LoanType';
const LIMIT_CODES = new Set([
  'MAX_DEPTH_EXCEEDED',
  'MAX_ALIASES_EXCEEDED',
  'MAX_DIRECTIVES_EXCEEDED',
  'MAX_TOKENS_EXCEEDED',
  'MAX_COST_EXCEEDED',
  'MAX_UPSTREAM_CALLS_EXCEEDED',
  'LOGIN_NOT_ALONE',
]);

let auth: Record<string, string>;
const h = useHarness({ listen: false });
beforeAll(async () => {
  auth = { authorization: `Bearer ${await h.login()}` };
  h.emulator.resetStats();
});

/** `object { ref { ref { … id } } }`, `levels` refs deep. */
function deepRefs(levels: number): string {
  const open = Array.from({ length: levels }, () => 'ref(path: "a", objectName: "X") {').join(' ');
  return `query Deep { object(objectName: "${LOAN}", id: "1") { ${open} id ${'}'.repeat(levels)} } }`;
}

/**
 * A page of orders with each order's customer, written the way GraphQL Code Generator's client preset
 * writes it (a fragment per component), `extra` more `ref` levels below: real depth 5 + `extra`.
 */
function fragmentedPage(extra: number): string {
  const deeper = Array.from({ length: extra }, () => 'ref(path: "a", objectName: "X") {').join(' ');
  return `query OrdersWithCustomers { objects(objectName: "com.example.Order", first: 2) { ...OrderList } }
    fragment OrderList on DataObjectConnection { edges { ...OrderEdge } }
    fragment OrderEdge on DataObjectEdge { node { ...OrderRow } }
    fragment OrderRow on DataObject { id ref(path: "customer.id", objectName: "com.example.Customer") { ...CustomerCell } }
    fragment CustomerCell on DataObject { ${deeper} id ${'}'.repeat(extra)} field(path: "name") }`;
}

describe('depth of operations written with fragments', () => {
  it("should pass a query at real depth 5 written with the client preset's fragments", async () => {
    const answer = await h.post(fragmentedPage(0), {}, auth);
    expect(codesOf(answer)).toEqual([]);
    expect(answer.status).toBe(200);
  });

  it('should still refuse fragments whose real depth passes MAX_DEPTH, counting fields only', async () => {
    const answer = await h.post(fragmentedPage(2), {}, auth);
    expect(answer.status).toBe(400);
    const depth = answer.errors?.find((e) => e.extensions?.code === 'MAX_DEPTH_EXCEEDED');
    expect(depth?.message).toBe(
      "Query depth limit of 6 exceeded, found 7: select fewer nested levels in one operation, or have the gateway's operator raise MAX_DEPTH.",
    );
  });
});

/** A page of 5 orders whose row fragment spreads the next, 6 fragments deep, as relay-compiler emits it. */
const RELAY_PAGE = `query OrdersPageQuery { orders(first: 5) {
    edges { node { id ...Row1_order __typename } cursor } pageInfo { endCursor hasNextPage } } }
  fragment Row1_order on Order { number ...Row2_order }
  fragment Row2_order on Order { total ...Row3_order }
  fragment Row3_order on Order { status ...Row4_order }
  fragment Row4_order on Order { customer { ...Row5_customer id } }
  fragment Row5_customer on Customer { name ...Row6_customer }
  fragment Row6_customer on Customer { city country }`;

/** `n` aliases of the same page of 20 orders with their customers. */
function aliasedPages(n: number): string {
  const page = (i: number) =>
    `p${i}: orders(first: 20) { edges { cursor node { id number customer { id name } } } pageInfo { hasNextPage endCursor } }`;
  return `query Pages { ${Array.from({ length: n }, (_, i) => page(i)).join(' ')} }`;
}

describe('cost of operations written with fragments', () => {
  it('should serve a page of 5 whose rows nest 6 Relay fragments (GraphQL Armor counted 19,751)', async () => {
    const answer = await h.post(RELAY_PAGE, {}, auth);
    expect(answer.errors).toBeUndefined();
    expect(answer.status).toBe(200);
    const edges = (answer.data as { orders: { edges: { node: { number: string } }[] } }).orders.edges;
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.length).toBeLessThanOrEqual(5);
  });

  it('should still refuse twelve aliases of the same page with MAX_COST_EXCEEDED, and serve eleven', async () => {
    const twelve = await h.post(aliasedPages(12), {}, auth);
    expect(twelve.status).toBe(400);
    expect(twelve.errors).toEqual([
      {
        message:
          "Query Cost limit of 10000 exceeded, found 10290: ask for smaller pages (`first`, `last`) or fewer fields, or split the operation, or have the gateway's operator raise MAX_COST.",
        extensions: { code: 'MAX_COST_EXCEEDED', limit: 'MAX_COST', max: 10000, blame: 'caller' },
      },
    ]);
    const eleven = await h.post(aliasedPages(11), {}, auth);
    expect(codesOf(eleven)).toEqual([]);
  });
});

describe('hostile operations', () => {
  it('should refuse a query 40 levels deep with MAX_DEPTH_EXCEEDED naming the setting', async () => {
    const answer = await h.post(deepRefs(40), {}, auth);
    expect(answer.status).toBe(400);
    const depth = answer.errors?.find((e) => e.extensions?.code === 'MAX_DEPTH_EXCEEDED');
    expect(depth?.extensions).toEqual({
      code: 'MAX_DEPTH_EXCEEDED',
      limit: 'MAX_DEPTH',
      max: 6,
      blame: 'caller',
    });
    expect(depth?.message).toMatch(/depth limit of 6 exceeded/);
    expect(codesOf(answer).every((code) => LIMIT_CODES.has(String(code)))).toBe(true);
  });

  it('should refuse 1,100 aliases (24 KB, within MAX_DOCUMENT_BYTES) before even parsing them all (MAX_TOKENS_EXCEEDED)', async () => {
    const fields = Array.from({ length: 1_100 }, (_, i) => `a${i}: me { username }`).join(' ');
    const answer = await h.post(`query Many { ${fields} }`, {}, auth);
    expect(answer.status).toBe(400);
    expect(answer.errors).toEqual([
      {
        message: 'The operation has more than 1000 tokens.',
        extensions: { code: 'MAX_TOKENS_EXCEEDED', limit: 'MAX_TOKENS', max: 1000, blame: 'caller' },
      },
    ]);
  });

  it('should refuse 16 aliases with MAX_ALIASES_EXCEEDED', async () => {
    const fields = Array.from({ length: 16 }, (_, i) => `a${i}: me { username }`).join(' ');
    const answer = await h.post(`query Many { ${fields} }`, {}, auth);
    expect(answer.errors?.map((e) => e.extensions)).toEqual([
      { code: 'MAX_ALIASES_EXCEEDED', limit: 'MAX_ALIASES', max: 15, blame: 'caller' },
    ]);
  });

  it('should refuse 51 directives with MAX_DIRECTIVES_EXCEEDED', async () => {
    const directives = '@include(if: true) '.repeat(51);
    const answer = await h.post(`query D { me ${directives} { username } }`, {}, auth);
    expect(answer.errors?.map((e) => e.extensions?.code)).toContain('MAX_DIRECTIVES_EXCEEDED');
  });

  it('should refuse a 1 MB body with HTTP 413 and BODY_TOO_LARGE', async () => {
    const response = await h.fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: `{ me { username } } # ${'x'.repeat(1024 * 1024)}` }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'The request body is larger than 100000 bytes.',
          extensions: { code: 'BODY_TOO_LARGE', limit: 'MAX_BODY_BYTES', max: 100_000, blame: 'caller' },
        },
      ],
    });
  });

  it('should refuse 15 aliased logins in one request without asking the upstream once', async () => {
    const logins = Array.from(
      { length: 15 },
      (_, i) => `g${i}: login(username: "demo", password: "guess-${i}") { token }`,
    ).join(' ');
    const answer = await h.post(`mutation Guess { ${logins} }`);
    expect(answer.status).toBe(400);
    expect(codesOf(answer)).toEqual(['LOGIN_NOT_ALONE']);
    expect(h.upstreamCalls().loginJson).toBe(0);
  });

  it('should refuse three aliased 100-object pages with per-object metadata (MAX_UPSTREAM_CALLS_EXCEEDED)', async () => {
    const page = (alias: string) =>
      `${alias}: objects(objectName: "${LOAN}", first: 100) { nodes { id metadata { objectId } } }`;
    const before = h.upstreamCalls();
    const answer = await h.post(`query FanOut { ${page('a')} ${page('b')} ${page('c')} }`, {}, auth);
    expect(answer.status).toBe(400);
    expect(answer.errors?.map((e) => e.extensions)).toEqual([
      {
        code: 'MAX_UPSTREAM_CALLS_EXCEEDED',
        limit: 'MAX_UPSTREAM_CALLS_PER_REQUEST',
        max: 50,
        estimated: 303,
        blame: 'caller',
      },
    ]);
    expect(h.upstreamCalls()).toEqual(before);
  });

  it.each([
    ['an aliased login', 'mutation { mine: login(username: "demo", password: "x") { token } }'],
    [
      'a login beside another field',
      'mutation { login(username: "demo", password: "x") { token } saveObject(objectName: "X", data: {}) { id } }',
    ],
    [
      'two logins through fragments',
      'mutation { ...A ... on Mutation { b: login(username: "d", password: "y") { token } } } fragment A on Mutation { login(username: "d", password: "x") { token } }',
    ],
  ])('should refuse %s with LOGIN_NOT_ALONE', async (_name, query) => {
    const answer = await h.post(query);
    expect(codesOf(answer)).toEqual(['LOGIN_NOT_ALONE']);
  });

  // GraphQL Code Generator's client preset (`addTypenameSelectionDocumentTransform`) writes it so.
  it('should take a login beside __typename, which is no second login', async () => {
    const answer = await h.post(
      'mutation { __typename login(username: "demo", password: "demo-password") { __typename token } }',
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toMatchObject({ __typename: 'Mutation', login: { __typename: 'LoginPayload' } });
  });
});

describe('ordinary operations', () => {
  /** [label, document, operation name]: every operation of every example document. */
  const documents: [string, string][] = [
    ...Object.entries(operations)
      .filter(
        (entry): entry is [string, DocumentNode] => (entry[1] as { kind?: unknown }).kind === 'Document',
      )
      .map(([name, document]): [string, string] => [`test/support/operations.ts ${name}`, print(document)]),
    ...Object.entries(typedOperations)
      .filter(
        (entry): entry is [string, DocumentNode] => (entry[1] as { kind?: unknown }).kind === 'Document',
      )
      .map(([name, document]): [string, string] => [
        `test/support/typed-operations.ts ${name}`,
        print(document),
      ]),
    ['the landing page example', EXAMPLE_DOCUMENT],
    ['the introspection query (Apollo Sandbox)', getIntrospectionQuery()],
    ...['README.md', ...readdirSync('docs').map((name) => `docs/${name}`)].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map(
        (match, i): [string, string] => [`${file} graphql block ${i + 1}`, match[1] ?? ''],
      ),
    ),
    [
      'the example front-end (examples/web/src/operations.ts)',
      [...readFileSync('examples/web/src/operations.ts', 'utf8').matchAll(/graphql\(`([\s\S]*?)`\)/g)]
        .map((match) => match[1] ?? '')
        .join('\n'),
    ],
    [
      'eight objects by id in one query (test/e2e/objects.test.ts)',
      `query Many { ${Array.from({ length: 8 }, (_, i) => `o${i}: object(objectName: "${LOAN}", id: "${i}") { id }`).join(' ')} }`,
    ],
  ];
  const examples = documents.flatMap(([label, source]) =>
    parse(source)
      .definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
      .map((d): [string, string, string | undefined] => [
        `${label}${d.name ? ` (${d.name.value})` : ''}`,
        source,
        d.name?.value,
      ]),
  );

  it.each(examples)('should pass %s through every limit', async (_label, source, operationName) => {
    const response = await h.fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: source, operationName }),
    });
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    // Execution may fail for want of variables or data; parsing and validation must not.
    const codes = (body.errors ?? []).map((e) => e.extensions?.code);
    expect(
      codes.filter(
        (c) => LIMIT_CODES.has(String(c)) || /^GRAPHQL_(PARSE|VALIDATION)_FAILED$/.test(String(c)),
      ),
    ).toEqual([]);
  });
});

describe('settings', () => {
  const tuned = useHarness({
    listen: false,
    env: { MAX_DEPTH: '12', MAX_COST: '20', MAX_BODY_BYTES: '2048' },
  });

  it('should take the depth limit from MAX_DEPTH', async () => {
    const answer = await tuned.post(deepRefs(8));
    expect(codesOf(answer)).not.toContain('MAX_DEPTH_EXCEEDED');
    expect((await h.post(deepRefs(8))).errors?.[0]?.extensions?.code).toBe('MAX_DEPTH_EXCEEDED');
  });

  it('should take the cost limit from MAX_COST', async () => {
    const answer = await tuned.post(
      `{ objects(objectName: "${LOAN}") { totalCount nodes { id objectName data } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(answer.errors?.map((e) => e.extensions)).toEqual([
      { code: 'MAX_COST_EXCEEDED', limit: 'MAX_COST', max: 20, blame: 'caller' },
    ]);
  });

  it('should take the body cap from MAX_BODY_BYTES', async () => {
    const response = await tuned.fetch(tuned.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ me { username } } # ${'x'.repeat(3000)}` }),
    });
    expect(response.status).toBe(413);
  });
});
