/**
 * A write's read-back compared with what was sent, by meaning (`src/upstream/dialect/writes/stored-value.ts`,
 * `read-back-differences.ts`): the spellings an upstream written apart from us gives back for the same value
 * pass, every change of the value is a difference naming the field and both values.
 */
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../src/upstream/dialect/exact-json.ts';
import { readBackDifferences } from '../../src/upstream/dialect/writes/read-back-differences.ts';
import { isRestorable, sameStoredValue } from '../../src/upstream/dialect/writes/stored-value.ts';
import { checkUpdatedFields } from '../../src/upstream/dialect/writes/updated-fields.ts';

const exact = (text: string): unknown => parseExactJson(text);

describe('sameStoredValue', () => {
  it.each([
    ['2.7 and 2.70', 2.7, exact('2.70')],
    ['2.7 and 27e-1', 2.7, exact('27e-1')],
    ['5 and 5.0', 5, exact('5.0')],
    ['a long past 2^53 and its digits', exact('9007199254740993'), exact('9007199254740993')],
    ['a long and {"$numberLong": …}', exact('9007199254740993'), { $numberLong: '9007199254740993' }],
    ['an instant and the same with an offset', '2024-05-01T10:00:00.000Z', '2024-05-01T12:00:00+02:00'],
    ['an instant and {"$date": text}', '2024-05-01T10:00:00.000Z', { $date: '2024-05-01T10:00:00Z' }],
    ['an instant and {"$date": millis}', '2024-05-01T10:00:00.000Z', { $date: Date.UTC(2024, 4, 1, 10) }],
    ['an id and {"$oid": …}', '65f1c0ffee65f1c0ffee65f1', { $oid: '65f1c0ffee65f1c0ffee65f1' }],
    ['null and a missing field', null, undefined],
    ['an object and the same with a key added by the upstream', { a: 1 }, { a: 1, _class: 'Loan' }],
  ])('should take %s for the same value', (_name, sent, back) => {
    expect(sameStoredValue(sent, back)).toBe(true);
  });

  it.each([
    ['2.7 and 2', 2.7, 2],
    ['a long and the double it rounds to', exact('9007199254740993'), 9007199254740992],
    ['5 and "5"', 5, '5'],
    ['true and "true"', true, 'true'],
    ['a text and a shorter one', 'abcdef', 'abc'],
    ['a text and ?s', 'Ελληνικά', '????????'],
    ['an instant and another', '2024-05-01T10:00:00.000Z', '2024-05-01T10:00:01.000Z'],
    ['a date without a zone and another spelling', '2024-05-01T10:00', '2024-05-01T10:00:00Z'],
    ['an array and a shorter one', [1, 2], [1]],
    ['an object and one missing a key', { a: 1, b: 2 }, { a: 1 }],
    ['a value and a missing field', 1, undefined],
  ])('should take %s for different values', (_name, sent, back) => {
    expect(sameStoredValue(sent, back)).toBe(false);
  });

  it('should take a number read back as its text only in the one-parameter-per-field dialect', () => {
    expect(sameStoredValue(5, '5.0', { textForScalars: true })).toBe(true);
    expect(sameStoredValue(true, 'true', { textForScalars: true })).toBe(true);
    expect(sameStoredValue(5, '6', { textForScalars: true })).toBe(false);
  });
});

describe('readBackDifferences', () => {
  it('should name each field stored otherwise, with the value sent and the value read back', () => {
    expect(
      readBackDifferences(
        { _id: 'x', rate: 2.7, extra: 'y', note: 'same', due: '2024-05-01T10:00:00.000Z' },
        { _id: 'x', rate: 2, note: 'same', due: { $date: '2024-05-01T10:00:00Z' } },
      ),
    ).toEqual([
      { field: 'rate', sent: '2.7', readBack: '2' },
      { field: 'extra', sent: '"y"', readBack: null },
    ]);
  });

  it('should carry exact numbers digit for digit', () => {
    expect(readBackDifferences({ n: exact('9007199254740993') }, { n: 9007199254740992 })).toEqual([
      { field: 'n', sent: '9007199254740993', readBack: '9007199254740992' },
    ]);
  });
});

describe('isRestorable', () => {
  it('should take plain JSON and exact numbers, never MongoDB extended JSON', () => {
    expect(isRestorable({ a: [1, 'x', null, true, exact('9007199254740993')] })).toBe(true);
    expect(isRestorable({ $date: '2024-05-01T10:00:00Z' })).toBe(false);
    expect(isRestorable([{ ref: { $oid: '65f1c0ffee65f1c0ffee65f1' } }])).toBe(false);
  });
});

describe('checkUpdatedFields', () => {
  it('should name every field updatedFields answers otherwise than sent, with both values', () => {
    expect(
      checkUpdatedFields({ rate: 2.7, term: 12, note: 'x' }, { rate: 2, term: 12, note: 'y' }, 'data'),
    ).toMatchObject({
      kind: 'mismatch',
      fields: [
        { field: 'rate', sent: '2.7', readBack: '2' },
        { field: 'note', sent: '"x"', readBack: '"y"' },
      ],
    });
  });
});
