/**
 * Introspection is limited too: the standard introspection query (Apollo Sandbox, GraphiQL, GraphQL Code
 * Generator) passes with every option, and anything nested deeper is refused with its own code, wherever
 * introspection is on.
 */
import { buildSchema, getIntrospectionQuery, parse, validate, type IntrospectionOptions } from 'graphql';
import { describe, expect, it } from 'vitest';
import { introspectionDepthRule } from '../../src/limits/introspection-depth-rule.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { codesOf } from '../support/post-graphql.ts';

/** Any schema has the introspection types. */
const SCHEMA = buildSchema('type Query { a: Int }');

const h = useHarness({ listen: false });

describe('the standard introspection query', () => {
  const variants: [string, IntrospectionOptions][] = [
    ['with its defaults', {}],
    ['without descriptions', { descriptions: false }],
    ['with specifiedByUrl', { specifiedByUrl: true }],
    ['with inputValueDeprecation', { inputValueDeprecation: true }],
    [
      'with every option (GraphiQL, GraphQL Code Generator)',
      {
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      },
    ],
    ['as graphql-js before 16.10 and Apollo Sandbox send it (7 ofType)', { typeDepth: 7 }],
  ];

  it.each(variants)('should pass %s', async (_label, options) => {
    const answer = await h.post(getIntrospectionQuery(options));
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.__schema).toMatchObject({ queryType: { name: 'Query' } });
  });
});

describe('deeper introspection', () => {
  it('should refuse the standard query asking for 10 ofType with MAX_INTROSPECTION_DEPTH_EXCEEDED', async () => {
    const answer = await h.post(getIntrospectionQuery({ typeDepth: 10 }));
    expect(answer.status).toBe(400);
    expect(answer.data).toBeUndefined();
    expect(answer.errors).toEqual([
      {
        message: 'Introspection nests ofType 10 deep; at most 9 are allowed.',
        extensions: { code: 'MAX_INTROSPECTION_DEPTH_EXCEEDED', blame: 'caller' },
      },
    ]);
  });

  it('should refuse a long ofType chain behind aliases and inline fragments', async () => {
    const chain = Array.from({ length: 40 }, (_, i) => `a${i}: ofType { ... on __Type {`).join(' ');
    const answer = await h.post(`{ __schema { types { ${chain} name ${'} }'.repeat(40)} } } }`);
    expect(codesOf(answer)).toContain('MAX_INTROSPECTION_DEPTH_EXCEEDED');
  });

  it.each([
    ['types { fields { type { fields', '{ __schema { types { fields { type { fields { name } } } } } }'],
    [
      'types { fields { type { fields { type { fields …',
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
    ],
    [
      'interfaces { possibleTypes { interfaces',
      '{ __type(name: "Query") { interfaces { possibleTypes { interfaces { name } } } } }',
    ],
    [
      'fields through a fragment',
      '{ __schema { types { ...Deeper } } } fragment Deeper on __Type { fields { type { inputFields { name } } } }',
    ],
  ])('should refuse %s with MAX_INTROSPECTION_DEPTH_EXCEEDED', async (_label, query) => {
    const answer = await h.post(query);
    expect(answer.status).toBe(400);
    expect(codesOf(answer)).toContain('MAX_INTROSPECTION_DEPTH_EXCEEDED');
  });

  it('should measure fragments spread into a trillion paths at once', () => {
    // F0 spreads F1 twice, F1 spreads F2 twice… 40 levels: 2^40 paths, a few hundred tokens. Walking the
    // paths would never end (well past the test's time limit): only measuring each fragment once answers.
    const fragments = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on __Type { ofType { ...F${i + 1} } a: ofType { ...F${i + 1} } }`,
    ).join(' ');
    const document = parse(`{ __schema { types { ...F0 } } } ${fragments} fragment F40 on __Type { name }`);
    const errors = validate(SCHEMA, document, [introspectionDepthRule]);
    expect(errors.map((e) => e.extensions.code)).toEqual(['MAX_INTROSPECTION_DEPTH_EXCEEDED']);
  });

  it('should end on a fragment cycle, which graphql-js refuses', async () => {
    const query = '{ __schema { types { ...Loop } } } fragment Loop on __Type { ofType { ...Loop } }';
    expect(validate(SCHEMA, parse(query), [introspectionDepthRule])).toEqual([]);
    expect(codesOf(await h.post(query))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describe('with introspection turned on in production', () => {
  const prod = useHarness({
    listen: false,
    env: { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), INTROSPECTION: 'true' },
  });

  it('should pass the standard query and refuse a deeper one', async () => {
    expect((await prod.post(getIntrospectionQuery())).errors).toBeUndefined();
    const deeper = await prod.post(getIntrospectionQuery({ typeDepth: 12 }));
    expect(codesOf(deeper)).toEqual(['MAX_INTROSPECTION_DEPTH_EXCEEDED']);
  });
});
