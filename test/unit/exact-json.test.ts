/**
 * The upstream client's JSON parse keeps every number's value (9007199254740993 was once read as …992):
 * a number a double would change is kept with its text and written back digit for digit by
 * `JSON.stringify`; every other number stays a plain JavaScript number, so nothing else changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyJson, isExactNumber, parseExactJson } from '../../src/upstream/dialect/exact-json.ts';
import { numberLoss } from '../../src/upstream/dialect/number-loss.ts';
import { jsonIntegerDigits } from '../support/json-integer-digits.ts';

/**
 * JSON number tokens of every kind a Java upstream writes and more: small integers, longs past 2^53,
 * decimals with many digits, exponents (overflowing and underflowing ones too), negative zero.
 */
const numberToken = fc
  .tuple(
    fc.boolean(),
    jsonIntegerDigits,
    fc.option(fc.stringMatching(/^[0-9]{1,30}$/)),
    fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), fc.nat(420))),
  )
  .map(
    ([negative, integer, fraction, exponent]) =>
      `${negative ? '-' : ''}${integer}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `${exponent[0]}${exponent[1]}`}`,
  );

const tokens = fc.oneof(
  numberToken,
  fc.constantFrom(
    '9007199254740993',
    '-9007199254740993',
    '9223372036854775807',
    '-0',
    '-0.0',
    '1e400',
    '1e-400',
  ),
);

/** Whether `written` (what `JSON.stringify` wrote for the number `token` became) has `token`'s value. */
function sameValue(token: string, written: string): boolean {
  // An exact number writes its own text; a plain one writes the shortest form of a double that `token`
  // names exactly (numberLoss says so), so both are the same decimal value. `-0` writes `0`: equal.
  return written === token || (numberLoss(token) === undefined && Number(written) === Number(token));
}

describe('parseExactJson', () => {
  it('should keep the value of every number through parse and JSON.stringify', () => {
    fc.assert(
      fc.property(fc.array(tokens, { minLength: 1, maxLength: 8 }), (numbers) => {
        const text = `{"a":[${numbers.join(',')}],"b":{"c":${numbers[0] ?? '0'}},"s":"12345678901234567890"}`;
        const parsed = parseExactJson(text) as { a: unknown[]; b: { c: unknown }; s: string };
        const sources = (_key: string, value: unknown, context?: { source?: string }): unknown =>
          typeof value === 'number' ? context?.source : value;
        const written = JSON.parse(JSON.stringify(parsed.a), sources) as string[];
        numbers.forEach((token, index) => {
          const value = parsed.a[index];
          // Exact exactly when a double would change the token; plain numbers stay numbers.
          expect(isExactNumber(value), token).toBe(numberLoss(token) !== undefined);
          if (!isExactNumber(value)) expect(typeof value).toBe('number');
          expect(sameValue(token, written[index] ?? ''), `${token} written as ${written[index]}`).toBe(true);
        });
        expect(parsed.s).toBe('12345678901234567890');
      }),
      { numRuns: 1000 },
    );
  });

  it('should answer what JSON.parse answers for any JSON a double can hold', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parseExactJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('should keep the long a Java upstream was measured to send', () => {
    const parsed = parseExactJson('{"_id":"a","entryNo":9007199254740993,"rate":2.50}') as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(parsed)).toBe('{"_id":"a","entryNo":9007199254740993,"rate":2.5}');
    expect(parsed.rate).toBe(2.5);
  });

  it('should refuse, never round, a text too deep to revive', () => {
    const deep = `${'['.repeat(5000)}9007199254740993${']'.repeat(5000)}`;
    expect(() => parseExactJson(deep)).toThrow(RangeError);
  });
});

describe('copyJson', () => {
  it('should copy records deeply and keep exact numbers (structuredClone throws on them)', () => {
    const record = parseExactJson('{"a":{"b":[9007199254740993,{"c":1}]},"__proto__":{"x":1}}') as Record<
      string,
      unknown
    >;
    const copy = copyJson(record);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(record));
    expect(copy.a).not.toBe(record.a);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(() => structuredClone(record)).toThrow(/could not be cloned/);
  });
});
