/**
 * The write dialects' pure parts: where a save answer's id is, update's fields as query parameters, and
 * `updatedFields` held to what was sent, by meaning (`src/upstream/dialect/`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UpstreamError } from '../../src/errors/upstream-error.ts';
import { fromUpstreamError } from '../../src/errors/from-upstream-error.ts';
import { findSavedId, readSavedId, savedIdAt } from '../../src/upstream/dialect/writes/saved-id.ts';
import { toUpdateParams } from '../../src/upstream/dialect/writes/update-params.ts';
import {
  checkUpdatedFields,
  needsReadBack,
  recordHolds,
  sameMeaning,
} from '../../src/upstream/dialect/writes/updated-fields.ts';
import { thrownBy } from '../support/thrown-by.ts';

const thrown = (run: () => unknown) => thrownBy(run) as UpstreamError;

describe('the id of a save answer', () => {
  it.each([
    ['savedObjectId', { savedObjectId: 'a1' }],
    ['data._id', { data: { _id: 'a1', loanType: 'x' } }],
    ['data', { data: 'a1' }],
  ] as const)('should read it at %s', (at, answer) => {
    expect(savedIdAt(answer, at)).toBe('a1');
    expect(findSavedId(answer)).toEqual({ at, id: 'a1' });
    expect(readSavedId(answer, at, undefined)).toBe('a1');
  });

  it('should not take an empty string, a number, an inherited _id or an array for an id', () => {
    expect(savedIdAt({ savedObjectId: '' }, 'savedObjectId')).toBeUndefined();
    expect(savedIdAt({ savedObjectId: 7 }, 'savedObjectId')).toBeUndefined();
    expect(savedIdAt({ data: Object.create({ _id: 'a1' }) as object }, 'data._id')).toBeUndefined();
    expect(savedIdAt({ data: ['a1'] }, 'data._id')).toBeUndefined();
    expect(savedIdAt({ data: { _id: 'a1' } }, 'data')).toBeUndefined();
  });

  it('should answer an applied mismatch with the id when the answer holds it elsewhere', () => {
    const error = thrown(() => readSavedId({ data: { _id: 'a1' } }, 'savedObjectId', undefined));
    expect(error.kind).toBe('dialect_mismatch');
    expect(error.applied).toEqual({ objectId: 'a1' });
    const answered = fromUpstreamError(error);
    expect(answered.extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      assumption: 'save_id',
      setting: 'UPSTREAM_SAVE_ID_AT',
      applied: true,
      objectId: 'a1',
    });
    expect(answered.message).toContain('The object was created: do not save it again, read it by that id.');
    expect(answered.message).toContain('UPSTREAM_SAVE_ID_AT=data._id');
  });

  it('should say how to find the object by a field when the answer holds no id at all', () => {
    const error = thrown(() => readSavedId({}, 'savedObjectId', undefined));
    expect(error.applied).toEqual({ objectId: undefined });
    const answered = fromUpstreamError(error);
    expect(answered.extensions).toMatchObject({ applied: true });
    expect(answered.extensions).not.toHaveProperty('objectId');
    expect(answered.message).toContain('find it with objects(filter: …) by a field you saved');
    const withId = fromUpstreamError(thrown(() => readSavedId({}, 'data', 'b2')));
    expect(withId.message).toContain('The object was written');
    expect(withId.message).toContain('"b2"');
  });
});

describe('update fields as one query parameter each', () => {
  it('should send strings as they are and other values as their JSON text', () => {
    expect(
      toUpdateParams({ a: 'text', b: 5, c: 2.5, d: true, e: { city: 'Nuenen' }, f: [1, 'x'], data: 'd' }),
    ).toEqual({ a: 'text', b: '5', c: '2.5', d: 'true', e: '{"city":"Nuenen"}', f: '[1,"x"]', data: 'd' });
  });

  it.each(['objectName', 'apiToken', 'username', 'applicationCode', 'organizationCode', 'callback', ''])(
    'should refuse a field named %j before sending',
    (name) => {
      const error = thrown(() => toUpdateParams({ [name]: 'x' }));
      expect(error.kind).toBe('invalid_input');
      expect(error.argument).toBe(`data.${name}`);
      expect(error.detail).toContain('saveObject and "_id"');
    },
  );

  it('should refuse null, which a parameter cannot carry', () => {
    expect(thrown(() => toUpdateParams({ note: null })).detail).toContain('is null');
  });

  it('should keep a field named __proto__ a plain parameter', () => {
    const params = toUpdateParams(JSON.parse('{"__proto__":"x"}') as Record<string, unknown>);
    expect(Object.hasOwn(params, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
  });
});

const json = fc.jsonValue();
const fieldName = fc.string({ minLength: 1, maxLength: 8 });

describe('updatedFields compared by meaning', () => {
  it('should take any JSON value as meaning itself, and its parameter text as meaning it too', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(sameMeaning(value, structuredClone(value))).toBe(true);
        if (value !== null) {
          const text = typeof value === 'string' ? value : JSON.stringify(value);
          expect(sameMeaning(value, text)).toBe(true);
        }
      }),
    );
  });

  it('should be symmetric', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(sameMeaning(a, b)).toBe(sameMeaning(b, a));
      }),
    );
  });

  it.each([
    [5, '5.0'],
    [5, 5.0],
    [100, '1e2'],
    [true, 'true'],
    [
      { a: 1, b: [2] },
      { b: [2], a: 1 },
    ],
    [{ a: 1 }, '{"a":1}'],
    [0, -0],
  ])('should take %j and %j to mean the same', (a, b) => {
    expect(sameMeaning(a, b)).toBe(true);
  });

  it.each([
    [5, '6'],
    [5, ' 5'],
    ['5', '5.0'],
    [true, 'yes'],
    [null, 'null text'],
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1 }, '{"a":"1"}'],
    [
      [1, 2],
      [2, 1],
    ],
  ])('should tell %j from %j', (a, b) => {
    expect(sameMeaning(a, b)).toBe(false);
  });

  it('should confirm an answer naming the fields sent, or some of them (the others did not change)', () => {
    expect(checkUpdatedFields({ a: 1, b: 'x' }, { a: '1' }, 'data')).toEqual({ kind: 'confirmed' });
    expect(checkUpdatedFields({ a: 1 }, { a: 1, updatedAt: 'now' }, 'data')).toEqual({ kind: 'confirmed' });
    expect(checkUpdatedFields({}, {}, 'data')).toEqual({ kind: 'confirmed' });
  });

  it('should call a field changed to another value, or our data parameter taken for a field, a mismatch', () => {
    expect(checkUpdatedFields({ a: 1 }, { a: 2 }, 'data').kind).toBe('mismatch');
    const asField = checkUpdatedFields({ a: 1 }, { data: '{"a":1}' }, 'data');
    expect(asField).toMatchObject({
      kind: 'mismatch',
      detail: expect.stringContaining('a text field "data"'),
    });
    expect(checkUpdatedFields({ a: 1 }, { callback: 'cb1' }, 'params').kind).toBe('mismatch');
    // A field the caller named "data" is a field like any other.
    expect(checkUpdatedFields({ data: 'd' }, { data: 'd' }, 'data')).toEqual({ kind: 'confirmed' });
  });

  it('should leave an answer naming none of the fields to a read of the object', () => {
    expect(checkUpdatedFields({ a: 1 }, {}, 'data')).toEqual({ kind: 'unconfirmed' });
    expect(checkUpdatedFields({ a: 1 }, { updatedAt: 'now' }, 'params')).toEqual({ kind: 'unconfirmed' });
    expect(needsReadBack({ a: 1 }, { updatedAt: 'now' })).toBe(true);
    expect(needsReadBack({ a: 1 }, { a: 1 })).toBe(false);
    expect(recordHolds({ _id: 'r', a: '1', b: 'x' }, { a: 1 })).toBe(true);
    expect(recordHolds({ _id: 'r', a: 2 }, { a: 1 })).toBe(false);
    expect(recordHolds({ _id: 'r' }, { a: null })).toBe(true);
    expect(recordHolds({ _id: 'r' }, { a: 1 })).toBe(false);
  });

  it('should never confirm an answer whose every named field was sent with another value', () => {
    fc.assert(
      fc.property(fc.dictionary(fieldName, json, { minKeys: 1 }), (sent) => {
        const contradicting = Object.fromEntries(
          Object.entries(sent).map(([key, value]) => [key, { not: value }]),
        );
        expect(checkUpdatedFields(sent, contradicting, 'data').kind).toBe('mismatch');
      }),
    );
  });
});
