import fc from 'fast-check';
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString } from 'graphql';
import { expect, it } from 'vitest';
import { checkValue } from '../../src/typed/check-value.ts';
import { FIELD_SCALARS, type TypeRef } from '../../src/typed/spec/object-type-spec.ts';

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
