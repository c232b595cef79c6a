/**
 * The static upstream-call estimate over the real built schema: what each field costs upstream, how lists
 * multiply it and batching divides it, and that every operation the examples send fits the default budget
 * even at the largest page.
 */
import { readFileSync } from 'node:fs';
import { Kind, parse, print, type DocumentNode, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { ApolloServerPlugin } from '@apollo/server';
import { estimateUpstreamCalls } from '../../src/limits/upstream-call-estimate.ts';
import { createUpstreamCallLimit } from '../../src/limits/upstream-call-limit.ts';
import { upstreamCallKinds } from '../../src/limits/upstream-call-kinds.ts';
import { encodeCursor } from '../../src/objects/paging.ts';
import { buildSchema } from '../../src/app/build-schema.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import * as operations from '../support/operations.ts';
import * as typedOperations from '../support/typed-operations.ts';
import { sampleVariables } from '../support/sample-variables.ts';
import { useObjectTypesFolders } from '../support/use-object-types-folders.ts';

const schema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR });
const kinds = upstreamCallKinds(schema);
const pageLimits = { defaultPageSize: 20, maxPageSize: 100, upstreamMaxPageSize: 1000 };
/** The default of `MAX_UPSTREAM_CALLS_PER_REQUEST`. */
const BUDGET = 50;
const LOAN = 'com.example.LoanType';

function estimate(
  query: string | DocumentNode,
  variables?: Record<string, unknown>,
  options: {
    operationName?: string;
    idsPerCall?: number;
    on?: GraphQLSchema;
    upstreamMaxPageSize?: number;
  } = {},
): number | undefined {
  const on = options.on ?? schema;
  return estimateUpstreamCalls({
    schema: on,
    kinds: on === schema ? kinds : upstreamCallKinds(on),
    document: typeof query === 'string' ? parse(query) : query,
    operationName: options.operationName,
    variables,
    pageLimits: { ...pageLimits, upstreamMaxPageSize: options.upstreamMaxPageSize ?? 1000 },
    idsPerCall: options.idsPerCall ?? 100,
  });
}

/** `n` aliased 100-object pages of loan types, each selecting `selection` on every object. */
function aliasedPages(n: number, selection: string): string {
  const page = (i: number) => `p${i}: objects(objectName: "${LOAN}", first: 100) { nodes { ${selection} } }`;
  return `{ ${Array.from({ length: n }, (_, i) => page(i)).join(' ')} }`;
}

describe('upstreamCallKinds', () => {
  it('should classify the generic fields by how they reach the upstream', () => {
    expect(
      Object.fromEntries([...kinds].filter(([coordinate]) => !/^(Customer|LoanType|Order)/.test(coordinate))),
    ).toMatchObject({
      'Query.objects': 'page',
      'Query.object': 'byId',
      'DataObject.ref': 'byId',
      'Query.metadata': 'perObject',
      'DataObject.metadata': 'perObject',
      'Mutation.login': 'write',
      'Mutation.saveObject': 'verifiedWrite',
      'Mutation.updateObject': 'verifiedWrite',
    });
    for (const free of [
      'Query.me',
      'DataObjectConnection.nodes',
      'DataObjectEdge.node',
      'DataObject.data',
      'SavePayload.object',
      'UpdatePayload.object',
    ])
      expect(kinds.has(free)).toBe(false);
  });

  describe('on an object type it has never seen', () => {
    const dir = useObjectTypesFolders('upstream-calls-')({
      'payee.graphql': 'type Payee @dataObject(name: "x.Payee") { id: ID! name: String }',
      'invoice.graphql':
        'type Invoice @dataObject(name: "x.Invoice", plural: "bills") { id: ID! payee: Payee @ref(field: "payee.id") }',
    });
    const custom = buildSchema({ objectsDir: dir });

    it('should classify its generated fields from its directives', () => {
      expect(
        Object.fromEntries([...upstreamCallKinds(custom)].filter(([c]) => /Invoice|bills|invoice/.test(c))),
      ).toEqual({
        'Query.invoice': 'byId',
        'Query.bills': 'page',
        'Invoice.payee': 'byId',
        'Invoice.metadata': 'perObject',
        'Mutation.saveInvoice': 'verifiedWrite',
        'Mutation.updateInvoice': 'verifiedWrite',
      });
    });

    it('should estimate a page of it with its reference as one page and one batch', () => {
      expect(
        estimate('{ bills(first: 100) { edges { node { id payee { name } } } } }', {}, { on: custom }),
      ).toBe(2);
    });
  });
});

describe('estimateUpstreamCalls', () => {
  it('should let a full page of orders with their customers through: one page and one batch of customers', () => {
    expect(estimate('{ orders(first: 100) { nodes { id number customer { name } } } }')).toBe(2);
  });

  it('should count the calls a page split at UPSTREAM_MAX_PAGE_SIZE makes, and its batches of that size', () => {
    const query = '{ orders(first: 100) { nodes { id number customer { name } } } }';
    // Four pages of 25, then four batches of 25 customers: what the loaders do (test/e2e/page-size-cap.test.ts).
    expect(estimate(query, {}, { upstreamMaxPageSize: 25, idsPerCall: 25 })).toBe(8);
    const after = `{ orders(first: 50, after: "${encodeCursor(6)}") { totalCount } }`;
    expect(estimate(after, {}, { upstreamMaxPageSize: 25 })).toBe(3);
    expect(estimate('{ orders(last: 50) { totalCount } }', {}, { upstreamMaxPageSize: 25 })).toBe(1 + 3);
  });

  it('should count one metadata call per object: three aliased full pages with metadata are 303 calls', () => {
    expect(estimate(aliasedPages(3, 'metadata { objectId }'))).toBe(303);
    expect(estimate(aliasedPages(3, 'id ref(path: "a", objectName: "X") { id }'))).toBe(6);
  });

  it('should take the page size from a variable, and DEFAULT_PAGE_SIZE when there is none', () => {
    const query = `query Q($n: Int) { objects(objectName: "${LOAN}", first: $n) { nodes { metadata { data } } } }`;
    expect(estimate(query, { n: 100 })).toBe(101);
    expect(estimate(query, { n: 5 })).toBe(6);
    expect(estimate(query, {})).toBe(1 + pageLimits.defaultPageSize);
    expect(estimate(query, { n: 0 })).toBe(1);
  });

  it('should multiply through edges and nodes alike, and count selections in fragments', () => {
    const fragments = `
      query Q { orders(last: 40, before: "${encodeCursor(80)}") {
        edges { node { ...Meta } }
        nodes { ... on Order { customer { ...CustomerMeta } } }
      } }
      fragment Meta on Order { id }
      fragment CustomerMeta on Customer { id name }`;
    expect(estimate(fragments)).toBe(1 + 1);
    const metadata = `{ objects(objectName: "${LOAN}", first: 10) {
      edges { node { ...M } } nodes { ... on DataObject { metadata { objectId } } } } }
      fragment M on DataObject { metadata { category } }`;
    expect(estimate(metadata)).toBe(1 + 10 + 10);
  });

  it('should count one batch per level of references, and one call per id when ids are read one by one', () => {
    const nested = `{ objects(objectName: "${LOAN}", first: 100) { nodes {
      ref(path: "a", objectName: "A") { ref(path: "b", objectName: "B") { id } } } } }`;
    expect(estimate(nested)).toBe(1 + 2);
    expect(estimate(nested, {}, { idsPerCall: 1 })).toBe(1 + 200);
    expect(
      estimate(
        `{ objects(objectName: "${LOAN}", first: 50) { nodes { ref(path: "a", objectName: "A") { metadata { data } } } } }`,
      ),
    ).toBe(1 + 1 + 50);
  });

  it('should count the upstream pages of the window: two when no single page covers it, three for last alone', () => {
    const page = (args: string) => `{ objects(objectName: "${LOAN}", ${args}) { totalCount } }`;
    expect(estimate(page(`first: 2, after: "${encodeCursor(10)}"`))).toBe(2);
    expect(estimate(page('first: 2'))).toBe(1);
    expect(estimate(page('last: 10'))).toBe(3);
  });

  it('should count nothing for page arguments the resolver refuses before calling the upstream', () => {
    expect(estimate(`{ objects(objectName: "${LOAN}", first: 101) { nodes { metadata { data } } } }`)).toBe(
      0,
    );
    expect(estimate(`{ orders(first: 1, last: 1) { totalCount } }`)).toBe(0);
  });

  it('should leave out what @skip and @include leave out', () => {
    const query = `query Q($skip: Boolean!) { objects(objectName: "${LOAN}", first: 100) {
      nodes { metadata @skip(if: $skip) { data } } } }`;
    expect(estimate(query, { skip: true })).toBe(1);
    expect(estimate(query, { skip: false })).toBe(101);
  });

  it('should count a login as one call, a save or update with its read-back as two, a save by _id as three', () => {
    expect(estimate('mutation { login(username: "u", password: "p") { token } }')).toBe(1);
    // The payload's object is the record read back: no call of its own, selected or not.
    expect(estimate('mutation { saveObject(objectName: "X", data: { a: 1 }) { id object { id } } }')).toBe(2);
    expect(estimate('mutation { saveObject(objectName: "X", data: { a: 1 }) { id } }')).toBe(2);
    expect(estimate('mutation { saveObject(objectName: "X", data: { _id: "7", a: 1 }) { id } }')).toBe(3);
    expect(
      estimate('mutation S($d: JSONObject!) { saveObject(objectName: "X", data: $d) { id } }', {
        d: { _id: '7' },
      }),
    ).toBe(3);
    expect(
      estimate(
        'mutation { updateOrder(id: "1", input: { status: "PAID" }) { object { customer { name } } } }',
      ),
    ).toBe(3);
    expect(estimate('{ me { username } }')).toBe(0);
  });

  it('should estimate only the operation named', () => {
    const document = `query A { orders { totalCount } } query B { a: orders { totalCount } b: customers { totalCount } }`;
    expect(estimate(document, {}, { operationName: 'A' })).toBe(1);
    expect(estimate(document, {}, { operationName: 'B' })).toBe(2);
  });

  it('should not estimate an operation whose variables do not fit it (execution refuses it)', () => {
    const query = `query Q($n: Int!) { objects(objectName: "${LOAN}", first: $n) { totalCount } }`;
    expect(estimate(query, {})).toBeUndefined();
    expect(estimate(query, { n: 'many' })).toBeUndefined();
  });

  it('should walk a fragment spread many times once, as execution merges it', () => {
    const spreads = (name: string) => Array.from({ length: 10 }, () => `...${name}`).join(' ');
    const repeated = `{ objects(objectName: "${LOAN}") { nodes { ...A } } }
      fragment A on DataObject { ${spreads('B')} } fragment B on DataObject { ${spreads('C')} }
      fragment C on DataObject { ${spreads('D')} } fragment D on DataObject { ${spreads('E')} }
      fragment E on DataObject { id metadata { objectId } }`;
    expect(estimate(repeated)).toBe(1 + pageLimits.defaultPageSize);
  });

  it('should count every field of a response that fans out through aliased fragments', () => {
    const refs = (next: string) =>
      Array.from({ length: 10 }, (_, i) => `r${i}: ref(path: "a", objectName: "X") { ...${next} }`).join(' ');
    const fanOut = `{ object(objectName: "${LOAN}", id: "1") { ...A } }
      fragment A on DataObject { ${refs('B')} } fragment B on DataObject { ${refs('C')} }
      fragment C on DataObject { ${refs('D')} } fragment D on DataObject { id }`;
    // One object, then 10, 100 and 1,000 references: one batch call per field of the response.
    expect(estimate(fanOut)).toBe(1 + 10 + 100 + 1_000);
  });

  it('should answer Infinity for an operation with more selections than it walks', () => {
    expect(estimate(`{ ${'__typename '.repeat(10_001)} }`)).toBe(Infinity);
  });

  it('should count a reference reached through several fragments once, and each alias of it', () => {
    const merged = `{ orders(first: 100) { nodes { ...A ...B } } }
      fragment A on Order { customer { name } } fragment B on Order { customer { ...C } }
      fragment C on Customer { email }`;
    expect(estimate(merged)).toBe(1 + 1);
    const aliased = `{ orders(first: 100) { nodes { a: customer { name } b: customer { name } } } }`;
    expect(estimate(aliased)).toBe(1 + 2);
  });
});

describe('the example operations', () => {
  const documents = [...Object.entries(operations), ...Object.entries(typedOperations)].filter(
    (entry): entry is [string, DocumentNode] => (entry[1] as { kind?: unknown }).kind === Kind.DOCUMENT,
  );
  const web = [
    ...readFileSync('examples/web/src/operations.ts', 'utf8').matchAll(/graphql\(`([\s\S]*?)`\)/g),
  ];
  const webDocument = parse(web.map((match) => match[1] ?? '').join('\n'));
  const examples = [...documents, ['examples/web', webDocument] as const].flatMap(([label, document]) =>
    document.definitions.flatMap((d) =>
      d.kind === Kind.OPERATION_DEFINITION
        ? [[`${label} ${d.name?.value ?? ''}`, document, d.name?.value] as const]
        : [],
    ),
  );

  it.each(examples)(
    'should fit %s in the default budget, even at the largest page',
    (_label, document, name) => {
      for (const page of ['first', 'last'] as const) {
        const variables = sampleVariables(schema, document, name, { [page]: pageLimits.maxPageSize });
        const calls = estimate(document, variables, { operationName: name });
        expect(calls, `${print(document).slice(0, 60)}… with ${page}`).toBeDefined();
        expect(calls).toBeLessThanOrEqual(BUDGET);
      }
    },
  );
});

describe('createUpstreamCallLimit', () => {
  /** Runs the plugin's check on `query` with `variables`: `undefined` when let through, else the refusal's code. */
  async function check(
    plugin: ApolloServerPlugin,
    query: DocumentNode,
    variables: Record<string, unknown>,
  ): Promise<unknown> {
    const listener = await plugin.requestDidStart?.({} as never);
    const operation = query.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    try {
      await listener?.didResolveOperation?.({
        schema,
        document: query,
        operation,
        request: { variables },
      } as never);
      return undefined;
    } catch (error) {
      return (error as { extensions?: { code?: unknown } }).extensions?.code;
    }
  }

  it('should estimate again when only the cursor changes: the same page size may read one page or two', async () => {
    const plugin = createUpstreamCallLimit({
      maxUpstreamCallsPerRequest: 1,
      defaultPageSize: 20,
      maxPageSize: 100,
      matchesMode: 'regex',
      upstreamMaxPageSize: 1000,
    });
    const query = parse(
      `query Q($after: String) { objects(objectName: "${LOAN}", first: 2, after: $after) { totalCount } }`,
    );
    expect(await check(plugin, query, {})).toBeUndefined();
    expect(await check(plugin, query, { after: encodeCursor(10) })).toBe('MAX_UPSTREAM_CALLS_EXCEEDED');
  });
});
