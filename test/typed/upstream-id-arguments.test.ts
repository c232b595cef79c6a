/**
 * Telling a global id of this gateway from an upstream id (`RELAY_NODE=true`): every id the gateway writes
 * is recognised with the type it names, and upstream ids as upstreams spell them never are, so a caller's
 * upstream id is never refused as a misplaced global id.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/typed/global-id.ts';
import type { ObjectTypeSpec } from '../../src/typed/spec/object-type-spec.ts';
import { globalIdTypeOf } from '../../src/typed/upstream-id-arguments.ts';

const byType = new Map(
  ['Customer', 'Order'].map((typeName) => [
    typeName,
    { typeName, objectName: `com.example.${typeName}` } as ObjectTypeSpec,
  ]),
);

describe('globalIdTypeOf', () => {
  it.each([
    [encodeGlobalId(['Customer', 'c-000001']), 'Customer'],
    [encodeGlobalId(['Order', '65f0c0ffee00000000000001']), 'Order'],
    [encodeGlobalId(['DataObject', 'com.acme.Invoice', 'i1']), 'DataObject'],
  ])('should name the type of the global id %s: %s', (id, type) => {
    expect(globalIdTypeOf(id, byType)).toBe(type);
  });

  it.each([
    ['an upstream id', 'c-000001'],
    ['a Mongo-style id', '65f0c0ffee00000000000001'],
    ['a UUID', '0b6e8f7a-3c1d-4e2f-9a8b-7c6d5e4f3a2b'],
    ['a global id of a type this schema lacks', encodeGlobalId(['Invoice', 'i1'])],
    ['a number', 42],
    ['nothing', undefined],
  ])('should not take %s for a global id', (_case, value) => {
    expect(globalIdTypeOf(value, byType)).toBeUndefined();
  });

  it('should recognise every global id it writes of a schema type, whatever the upstream id', () => {
    fc.assert(
      fc.property(fc.constantFrom('Customer', 'Order'), fc.string({ minLength: 1 }), (type, id) => {
        expect(globalIdTypeOf(encodeGlobalId([type, id]), byType)).toBe(type);
      }),
    );
  });

  it('should never take an upstream-shaped id (letters, digits, - and _) for a global id', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), (id) => {
        // The one exception is an id that is the exact encoding of a schema type's id: text the gateway wrote.
        fc.pre(!id.startsWith('MTo'));
        expect(globalIdTypeOf(id, byType)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
