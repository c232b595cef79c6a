/**
 * A typed number filter's pattern matches a stored number's text exactly when the number equals the
 * filter's, however the upstream spells it: JavaScript (`String`, `toExponential`), Java's
 * `Double.toString` (`3.0`, `1.0E21`), trailing zeros kept from the saved text (`2.50`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCriteria } from '../../src/filters/compile-criteria.ts';
import { numberPattern, numberTextPattern } from '../../src/filters/number-pattern.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { javaSpelling, spellings } from '../support/number-spellings.ts';

const matches = (pattern: string, text: string) => new RegExp(`^(?:${pattern})$`).test(text);

/** Doubles of every size, and close neighbours of a few: the values a mistake would confuse. */
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, -0, 2.5, 25, 0.25, 2.05, 3, 30, 0.3, 1e21, 1e-7, 123.456, 5e-324, Number.MAX_VALUE),
  fc.integer({ min: -2000, max: 2000 }).map((n) => n / 100),
);

describe('numberPattern', () => {
  it('should match a spelling of a number if and only if that number equals the filter', () => {
    fc.assert(
      fc.property(number, number, (filter, stored) => {
        const pattern = numberPattern(filter);
        for (const text of spellings(stored)) {
          expect(Number(text) === stored, text).toBe(true);
          expect(matches(pattern, text), `${pattern} against ${text}`).toBe(stored === filter);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('should match its own value in every spelling', () => {
    fc.assert(
      fc.property(number, (value) => {
        for (const text of spellings(value)) expect(matches(numberPattern(value), text)).toBe(true);
      }),
    );
  });

  it.each([
    [2.5, ['2.5', '2.50', '2.5E0', '2.5e+0'], ['25', '0.25', '2.05', '2.51', '-2.5', '2', '2.5.0', '']],
    [3, ['3', '3.0', '3.000', '3E0', '3.0E0'], ['30', '0.3', '3.01', '-3', '03', '3e1']],
    [0, ['0', '0.0', '-0.0', '-0', '0E0'], ['00', '0.01', '1']],
    [1e21, ['1e+21', '1.0E21', '1000000000000000000000'], ['1e+20', '1.0E22', '1e+2']],
    [-1.5e-7, ['-1.5e-7', '-1.5E-7', '-0.00000015'], ['1.5e-7', '-1.5e-8', '-0.0000015']],
  ])('should compile %d to a pattern matching its spellings and no other value', (value, hits, misses) => {
    const pattern = numberPattern(value);
    for (const hit of hits) expect(matches(pattern, hit), hit).toBe(true);
    for (const miss of misses) expect(matches(pattern, miss), miss).toBe(false);
  });

  it("should write Java's spelling of a double as Java does", () => {
    expect([3, 2.5, 1e21, 1e-7, 12345678, 0.001, -0].map(javaSpelling)).toEqual([
      '3.0',
      '2.5',
      '1.0E21',
      '1.0E-7',
      '1.2345678E7',
      '0.001',
      '-0.0',
    ]);
  });

  it('should throw for a number that is not finite (GraphQL never delivers one)', () => {
    expect(() => numberPattern(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => numberPattern(Number.NaN)).toThrow(RangeError);
  });
});

describe('numberTextPattern (a Long filter: the digits as written, never through a double)', () => {
  const long = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });

  it('should be numberPattern for the text String writes of any double', () => {
    fc.assert(
      fc.property(number, (value) => {
        expect(numberTextPattern(String(value))).toBe(numberPattern(value));
      }),
    );
  });

  it('should match a long in plain and scientific spellings, and none of its neighbours', () => {
    fc.assert(
      fc.property(long, (value) => {
        const pattern = numberTextPattern(value.toString());
        const digits = (value < 0n ? -value : value).toString();
        const sign = value < 0n ? '-' : '';
        const scientific = `${sign}${digits.charAt(0)}.${digits.slice(1) || '0'}E${digits.length - 1}`;
        for (const text of [value.toString(), `${value.toString()}.0`, scientific])
          expect(matches(pattern, text), `${pattern} against ${text}`).toBe(true);
        for (const other of [value - 1n, value + 1n, -value - 1n])
          expect(matches(pattern, other.toString()), `${pattern} against ${other}`).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('should tell 9007199254740993 from 9007199254740992, which a double cannot', () => {
    const pattern = numberTextPattern('9007199254740993');
    expect(matches(pattern, '9007199254740993')).toBe(true);
    expect(matches(pattern, '9007199254740992')).toBe(false);
    expect(numberPattern(Number('9007199254740993'))).toBe(numberPattern(9007199254740992));
  });
});

describe('numeric conditions', () => {
  const compile = (operator: 'equals' | 'in', operand: { value?: string; values?: string[] }) =>
    compileCriteria(
      [
        {
          fieldName: 'rate',
          operator,
          operandType: 'number',
          ...operand,
          at: { value: 'v', values: 'v', caseInsensitive: 'c' },
        },
      ],
      { matchesMode: 'regex', guard: defaultPatternGuard(), argumentName: 'where' },
    );

  it('should compile in to the alternation of each number, matching any of them in any spelling', async () => {
    const [criterion] = await compile('in', { values: ['2.5', '3'] });
    for (const text of ['2.50', '3.0', '3']) expect(matches(criterion!.value, text)).toBe(true);
    for (const text of ['25', '2', '0.3']) expect(matches(criterion!.value, text)).toBe(false);
  });

  it('should refuse an in whose compiled pattern passes the 4000 characters', async () => {
    const values = Array.from({ length: 100 }, (_, i) => String(Number.MAX_VALUE / (i + 2)));
    await expect(compile('in', { values })).rejects.toThrow(/more than 4000/);
  });
});
