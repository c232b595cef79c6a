import fc from 'fast-check';
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkValue } from '../../src/typed/check-value.ts';
import { FIELD_SCALARS, type TypeRef } from '../../src/typed/spec/object-type-spec.ts';
import { parseExactJson } from '../../src/upstream/dialect/exact-json.ts';

const scalar = (name: (typeof FIELD_SCALARS)[number], nonNull = false): TypeRef => ({
  kind: 'scalar',
  name,
  nonNull,
});

it.each([
  ['Float', 2.5, 2.5],
  ['Int', 7, 7],
  ['ID', 42, '42'],
  ['String', 'x', 'x'],
  ['Boolean', false, false],
  ['JSON', [1, { a: 2 }], [1, { a: 2 }]],
  ['JSONObject', { a: 1 }, { a: 1 }],
] as const)('should serve a %s value as it is', (name, value, served) => {
  expect(checkValue(value, scalar(name))).toEqual({ ok: true, value: served });
});

it.each([
  ['Float', 'high', 'the string "high"'],
  ['Int', '12', 'the string "12"'],
  ['Int', 2.5, 'the number 2.5'],
  ['Int', 2 ** 31, 'the number 2147483648 (beyond a 32-bit Int)'],
  ['String', 12, 'the number 12'],
  ['Boolean', 'true', 'the string "true"'],
  ['ID', { id: 1 }, 'an object'],
  ['JSONObject', [1], 'an array'],
] as const)('should refuse for %s %j, saying what it received', (name, value, received) => {
  expect(checkValue(value, scalar(name))).toEqual({ ok: false, received });
});

it('should serve null for a missing nullable value and refuse it where the type is non-null', () => {
  expect(checkValue(undefined, scalar('String'))).toEqual({ ok: true, value: null });
  expect(checkValue(null, scalar('String', true))).toEqual({ ok: false, received: 'null' });
});

it('should check every item of a list and name the bad one', () => {
  const list: TypeRef = { kind: 'list', of: scalar('Int', true), nonNull: true };
  expect(checkValue([1, 2], list)).toEqual({ ok: true, value: [1, 2] });
  expect(checkValue([1, 'two'], list)).toEqual({
    ok: false,
    received: 'an array holding the string "two" at index 1',
  });
  expect(checkValue('1,2', list)).toEqual({ ok: false, received: 'the string "1,2"' });
});

const serializers = {
  ID: GraphQLID,
  String: GraphQLString,
  Int: GraphQLInt,
  Float: GraphQLFloat,
  Boolean: GraphQLBoolean,
} as const;

it('should never throw, and serve only values GraphQL serializes unchanged', () => {
  const typeRef: fc.Arbitrary<TypeRef> = fc.letrec<{ type: TypeRef }>((tie) => ({
    type: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({
        kind: fc.constant('scalar' as const),
        name: fc.constantFrom(...FIELD_SCALARS),
        nonNull: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('list' as const), of: tie('type'), nonNull: fc.boolean() }),
    ),
  })).type;
  fc.assert(
    fc.property(fc.jsonValue(), typeRef, (value, type) => {
      const checked = checkValue(value, type);
      if (!checked.ok || checked.value === null) return;
      let inner: TypeRef = type;
      let served: unknown = checked.value;
      while (inner.kind === 'list' && Array.isArray(served) && served.length > 0) {
        served = served[0];
        inner = inner.of;
      }
      if (inner.kind !== 'scalar' || served === null || !(inner.name in serializers)) return;
      const serializer = serializers[inner.name as keyof typeof serializers];
      expect(serializer.serialize(served)).toBe(served);
    }),
    { numRuns: 500 },
  );
});

describe('numbers past 2^53 (kept with their digits by the upstream client)', () => {
  const exact = (text: string): unknown => parseExactJson(text);

  it.each([
    ['Long', '9007199254740993', '9007199254740993'],
    ['Long', '-9223372036854775808', '-9223372036854775808'],
    ['ID', '9007199254740993', '9007199254740993'],
  ] as const)('should serve a %s holding %s as its exact digits', (name, text, served) => {
    expect(checkValue(exact(text), scalar(name))).toEqual({ ok: true, value: served });
  });

  it('should serve it as it is where the type is JSON, so the response writes every digit', () => {
    const checked = checkValue(exact('9007199254740993'), scalar('JSON'));
    expect(checked.ok && JSON.stringify(checked.value)).toBe('9007199254740993');
  });

  it.each([
    ['Int', '9007199254740993', 'the number 9007199254740993, which an Int cannot hold exactly'],
    [
      'Float',
      '9007199254740993',
      'the number 9007199254740993, which a Float (a double) cannot hold exactly',
    ],
    [
      'Float',
      '0.12345678901234567890123',
      'the number 0.12345678901234567890123, which a Float (a double) cannot hold exactly',
    ],
    ['Float', '1e400', 'the number 1e400, which a Float (a double) cannot hold exactly'],
    ['Long', '9223372036854775808', 'the number 9223372036854775808 (not a 64-bit whole number)'],
    ['Long', '0.12345678901234567890123', 'the number 0.12345678901234567890123 (not a 64-bit whole number)'],
    ['ID', '1e400', 'the number 1e400'],
    ['String', '9007199254740993', 'the number 9007199254740993'],
    ['JSONObject', '9007199254740993', 'the number 9007199254740993'],
  ] as const)('should refuse a %s holding %s rather than round it', (name, text, received) => {
    expect(checkValue(exact(text), scalar(name))).toEqual({ ok: false, received });
  });

  it('should serve a Long from a plain whole number as text, and refuse a fraction', () => {
    expect(checkValue(42, scalar('Long'))).toEqual({ ok: true, value: '42' });
    expect(checkValue(2 ** 60, scalar('Long'))).toEqual({ ok: true, value: '1152921504606846976' });
    expect(checkValue(2.5, scalar('Long'))).toEqual({ ok: false, received: 'the number 2.5' });
    expect(checkValue('42', scalar('Long'))).toEqual({ ok: false, received: 'the string "42"' });
  });
});
