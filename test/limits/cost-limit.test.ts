/**
 * The cost limit (`MAX_COST`) and the upstream-call estimate count the fields an operation fetches: the
 * fragments Relay and the client presets write (nested, repeated, inline or named) never change either,
 * while aliases, which really fetch again, still cost what GraphQL Armor's rule counted.
 */
import { createRequire } from 'node:module';
import { costLimitRule as armorCostLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import fc from 'fast-check';
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type * as graphql from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/app/build-schema.ts';
import { operationCost } from '../../src/limits/cost-limit-rule.ts';
import { estimateUpstreamCalls } from '../../src/limits/upstream-call-estimate.ts';
import { upstreamCallKinds } from '../../src/limits/upstream-call-kinds.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

// The schema is built with graphql-js's CommonJS copy (through @graphql-tools); validate with the same one.
const graphqlCjs = createRequire(import.meta.url)('graphql') as typeof graphql;

const schema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR, relayNode: true });
const kinds = upstreamCallKinds(schema);
/** The default of `MAX_COST`. */
const MAX_COST = 5000;

function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  return operation;
}

function cost(query: string): number {
  const document = parse(query);
  return operationCost(schema, document, operationOf(document));
}

function calls(query: string): number | undefined {
  return estimateUpstreamCalls({
    schema,
    kinds,
    document: parse(query),
    pageLimits: { defaultPageSize: 20, maxPageSize: 100, upstreamMaxPageSize: 1000 },
    idsPerCall: 100,
  });
}

/** What GraphQL Armor's own cost rule (the gateway's before) found for `query`. */
function armorCost(query: string): number {
  const document = parse(query);
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])),
  );
  let found = Number.NaN;
  const visitor = armorCostLimitRule({
    maxCost: 0,
    propagateOnRejection: false,
    onReject: [(_context, error) => (found = Number(/found ([\d.]+?)\.?$/.exec(error.message)?.[1]))],
  })({
    getFragment: (name: string) => fragments.get(name),
    reportError: () => undefined,
  } as never) as unknown as {
    OperationDefinition: { enter: (operation: OperationDefinitionNode) => void };
  };
  visitor.OperationDefinition.enter(operationOf(document));
  return found;
}

/** A page of 5 orders whose row fragment spreads the next, `depth` fragments deep, as Relay compiles it. */
function nestedFragments(depth: number): string {
  const fragments = Array.from({ length: depth }, (_, i) => {
    const next = i + 1 < depth ? `...Row${i + 1}_order` : 'customer { id name }';
    return `fragment Row${i}_order on Order { id number ${next} }`;
  });
  return `query OrdersPageQuery { orders(first: 5) {
      edges { cursor node { id __typename ...Row0_order } } pageInfo { hasNextPage endCursor } } }
    ${fragments.join('\n')}`;
}

const INLINE = `query OrdersPageQuery { orders(first: 5) {
  edges { cursor node { id __typename number customer { id name } } } pageInfo { hasNextPage endCursor } } }`;

/** `n` aliases of a page of 20 orders with their customers. */
function aliasedPages(n: number): string {
  const page = (i: number) =>
    `p${i}: orders(first: 20) { edges { cursor node { id number customer { id name } } } pageInfo { hasNextPage endCursor } }`;
  return `query Pages { ${Array.from({ length: n }, (_, i) => page(i)).join(' ')} }`;
}

describe('the cost of fragments', () => {
  it('should cost 6 nested fragment spreads on a page of 5 what the same fields cost written inline', () => {
    expect(cost(nestedFragments(6))).toBe(cost(INLINE));
    expect(cost(INLINE)).toBeLessThan(300);
    // GraphQL Armor's rule counted every spread as one more level (×1.5): the same page was refused.
    expect(armorCost(nestedFragments(6))).toBeGreaterThan(MAX_COST);
  });

  it('should count a field reached through several fragments once', () => {
    const merged = `query Q { orders(first: 5) { nodes { ...A ...B ... on Order { customer { id } } } } }
      fragment A on Order { customer { name ...C } } fragment B on Order { customer { email ...C } }
      fragment C on Customer { city }`;
    const inline = `query Q { orders(first: 5) { nodes { customer { id name email city } } } }`;
    expect(cost(merged)).toBe(cost(inline));
    expect(calls(merged)).toBe(calls(inline));
  });

  it('should cost aliases of the same fields exactly what Armor counted, refused from the same count', () => {
    for (let n = 1; n <= 8; n += 1)
      expect(cost(aliasedPages(n)), `${n} aliases`).toBe(armorCost(aliasedPages(n)));
    expect(cost(aliasedPages(5))).toBeLessThanOrEqual(MAX_COST);
    expect(cost(aliasedPages(6))).toBeGreaterThan(MAX_COST);
  });

  it('should end on a fragment that spreads itself below a field (validation refuses the cycle)', () => {
    const cycle = `query Q { object(objectName: "X", id: "1") { ...A } }
      fragment A on DataObject { id ref(path: "a", objectName: "X") { ...A } }`;
    expect(Number.isFinite(cost(cycle))).toBe(true);
    expect(calls(cycle)).toBeGreaterThan(0);
  });

  it('should count an abstract field as its most expensive possible type', () => {
    const node = `query Q { node(id: "x") { id ... on Order { customer { name } } ... on Customer { name } } }`;
    expect(cost(node)).toBe(cost(`query Q { order(id: "x") { id customer { name } } }`));
  });
});

/** A selection of the generated queries: a field, a type case of an abstract type, or a fragment wrapper. */
type Selection =
  | { kind: 'field'; key: string; children: Selection[] }
  | { kind: 'case'; on: string; children: Selection[] }
  | { kind: 'wrap'; how: Wrapper; children: Selection[] };
type Wrapper = 'inline' | 'typed' | 'named' | 'named twice' | 'inline twice';

/** The fields the generator picks from, per type: `[field with arguments, the type below it or null]`. */
const MENU: Record<string, [string, string | null][]> = {
  Query: [
    ['orders(first: 5)', 'OrderConnection'],
    ['customers(first: 3)', 'CustomerConnection'],
    ['objects(objectName: "com.example.LoanType", first: 4)', 'DataObjectConnection'],
    ['order(id: "o")', 'Order'],
    ['object(objectName: "com.example.LoanType", id: "1")', 'DataObject'],
    ['node(id: "n")', 'Node'],
    ['nodes(ids: ["a", "b"])', 'Node'],
  ],
  OrderConnection: [
    ['totalCount', null],
    ['edges', 'OrderEdge'],
    ['nodes', 'Order'],
    ['pageInfo', 'PageInfo'],
  ],
  OrderEdge: [
    ['cursor', null],
    ['node', 'Order'],
  ],
  CustomerConnection: [
    ['nodes', 'Customer'],
    ['pageInfo', 'PageInfo'],
  ],
  DataObjectConnection: [
    ['totalCount', null],
    ['nodes', 'DataObject'],
  ],
  PageInfo: [
    ['hasNextPage', null],
    ['endCursor', null],
  ],
  Order: [
    ['id', null],
    ['number', null],
    ['customer', 'Customer'],
    ['metadata', 'ObjectMetadata'],
  ],
  Customer: [
    ['id', null],
    ['name', null],
    ['email', null],
    ['metadata', 'ObjectMetadata'],
  ],
  DataObject: [
    ['id', null],
    ['data', null],
    ['ref(path: "a", objectName: "com.example.Order")', 'DataObject'],
    ['metadata', 'ObjectMetadata'],
  ],
  ObjectMetadata: [
    ['objectId', null],
    ['category', null],
  ],
  Node: [['id', null]],
};
const CASES: Record<string, string[]> = { Node: ['Order', 'Customer', 'DataObject'] };
const WRAPPERS: Wrapper[] = ['inline', 'typed', 'named', 'named twice', 'inline twice'];

const memo = new Map<string, fc.Arbitrary<Selection[]>>();
/** Selections on `type`, fields `depth` levels deep at most, fragment wrappers `wraps` deep at most. */
function selections(type: string, depth: number, wraps: number): fc.Arbitrary<Selection[]> {
  const key = `${type} ${depth} ${wraps}`;
  const known = memo.get(key);
  if (known) return known;
  const fields = (MENU[type] ?? []).filter(([, below]) => below === null || depth > 0);
  const items: fc.Arbitrary<Selection>[] = fields.map(([field, below]) =>
    fc.record({
      kind: fc.constant('field' as const),
      // Aliases of the same field only (`number_1: number`): they never conflict with another field.
      key: fc.constantFrom(field, `${/^\w+/.exec(field)?.[0] ?? field}_1: ${field}`),
      children:
        below === null ? fc.constant([]) : fc.constant(null).chain(() => selections(below, depth - 1, 2)),
    }),
  );
  for (const on of CASES[type] ?? []) {
    items.push(
      fc.record({
        kind: fc.constant('case' as const),
        on: fc.constant(on),
        children: fc.constant(null).chain(() => selections(on, depth, 2)),
      }),
    );
  }
  if (wraps > 0) {
    items.push(
      fc.record({
        kind: fc.constant('wrap' as const),
        how: fc.constantFrom(...WRAPPERS),
        children: fc.constant(null).chain(() => selections(type, depth, wraps - 1)),
      }),
    );
  }
  const arbitrary = fc.array(fc.oneof(...items), { minLength: 1, maxLength: 4 });
  memo.set(key, arbitrary);
  return arbitrary;
}

/** The document of `root`: with its fragment wrappers written out, or with their selections in place. */
function render(root: Selection[], wrapped: boolean): string {
  const fragments: string[] = [];
  const write = (items: Selection[], type: string): string =>
    items
      .map((item): string => {
        if (item.kind === 'field') {
          const field = MENU[type]?.find(([f]) => item.key === f || item.key.endsWith(`: ${f}`));
          const below = field?.[1] ?? null;
          return below === null ? item.key : `${item.key} { ${write(item.children, below)} }`;
        }
        if (item.kind === 'case') return `... on ${item.on} { ${write(item.children, item.on)} }`;
        const inner = write(item.children, type);
        if (!wrapped) return inner;
        const name = `F${fragments.length}`;
        switch (item.how) {
          case 'inline':
            return `... { ${inner} }`;
          case 'inline twice':
            return `... { ${inner} } ... { ${inner} }`;
          case 'typed':
            return `... on ${type} { ${inner} }`;
          case 'named':
          case 'named twice':
            fragments.push(`fragment ${name} on ${type} { ${inner} }`);
            return item.how === 'named' ? `...${name}` : `...${name} ...${name}`;
        }
      })
      .join(' ');
  const operation = `query Generated { ${write(root, 'Query')} }`;
  return [operation, ...fragments].join('\n');
}

describe('fragments never change the estimates (property)', () => {
  it('should cost and estimate a query the same with any of its selections wrapped in fragments', () => {
    fc.assert(
      fc.property(selections('Query', 3, 2), (root) => {
        const plain = render(root, false);
        const wrapped = render(root, true);
        for (const document of [plain, wrapped]) {
          expect(graphqlCjs.validate(schema, graphqlCjs.parse(document)).map((e) => e.message)).toEqual([]);
        }
        expect(cost(wrapped)).toBe(cost(plain));
        expect(calls(wrapped)).toBe(calls(plain));
      }),
      { numRuns: 300 },
    );
  });
});
