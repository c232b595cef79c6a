/**
 * What a filter means, as the gateway holds every answered record to it: each operator's predicate agrees
 * with the pattern it compiles to (read as Java's `String.matches` by the emulator's engine), typed values
 * compare by meaning (`1250` = `1250.0` = `1.25E3`, instants as instants), and a caller's `matches` is run
 * with Java's meaning where the gateway can.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaPattern } from '../../emulator/operations/filter-command.ts';
import {
  compileCriteria,
  type FilterCondition,
  type FilterOperator,
} from '../../src/filters/compile-criteria.ts';
import { decimalKey } from '../../src/filters/decimal-key.ts';
import type { Criterion } from '../../src/upstream/client/types.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { spellings } from '../support/number-spellings.ts';
import { utcSpellings } from '../support/date-time-spellings.ts';

const at = { value: 'v', values: 'vs', caseInsensitive: 'ci' };

async function compileOne(condition: Omit<FilterCondition, 'at' | 'fieldName'>): Promise<Criterion> {
  const [criterion] = await compileCriteria([{ fieldName: 'f', at, ...condition }], {
    matchesMode: 'regex',
    guard: defaultPatternGuard(),
    argumentName: 'filter',
  });
  if (criterion?.meaning === undefined) throw new Error('no meaning');
  return criterion;
}

/** Whether `text` matches the compiled pattern of `criterion` as a whole (the emulator's Java engine). */
function patternMatches(criterion: Criterion, text: string): boolean {
  const compiled = compileJavaPattern(criterion.value);
  if (typeof compiled === 'string') throw new Error(compiled);
  return compiled.test(text);
}

const TEXT_OPERATORS = ['equals', 'in', 'contains', 'startsWith', 'endsWith'] as const;
const letters = fc.string({
  unit: fc.constantFrom('a', 'B', 'b', 'k', 'K', 'σ', 'Σ', 'ς', '.', '|', ' '),
  maxLength: 5,
});

describe('the meaning of a literal condition', () => {
  it('should agree with its compiled pattern on every text, in any case or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<FilterOperator>(...TEXT_OPERATORS),
        fc.array(letters, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        letters,
        async (operator, operands, caseInsensitive, text) => {
          const criterion = await compileOne(
            operator === 'in'
              ? { operator, values: operands, caseInsensitive }
              : { operator, value: operands[0] ?? '', caseInsensitive },
          );
          expect(criterion.meaning?.test(text)).toBe(patternMatches(criterion, text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('should never be satisfied by a record that lacks the field', async () => {
    const criterion = await compileOne({ operator: 'contains', value: '' });
    expect(criterion.meaning?.test(undefined)).toBe(false);
  });

  it('should take an in of two values as those two values only, not as text around them', async () => {
    const criterion = await compileOne({ operator: 'in', values: ['open', 'delivered'] });
    expect(['open', 'delivered'].map((t) => criterion.meaning?.test(t))).toEqual([true, true]);
    expect(['undelivered', 'open_claim', 'opened'].map((t) => criterion.meaning?.test(t))).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe('numbers by meaning', () => {
  it.each([
    ['1250', '1250.0'],
    ['1250', '1.25E3'],
    ['1250', '12.50e2'],
    ['0', '-0.0'],
    ['9007199254740993', '9007199254740993'],
    ['0.001', '1e-3'],
  ])('should hold %s and %s to be the same number', (a, b) => {
    expect(decimalKey(a)).toBe(decimalKey(b));
  });

  it('should tell 9007199254740993 from 9007199254740992 and 125 from 1250', () => {
    expect(decimalKey('9007199254740993')).not.toBe(decimalKey('9007199254740992'));
    expect(decimalKey('125')).not.toBe(decimalKey('1250'));
    expect(decimalKey('abc')).toBeUndefined();
  });

  it('should satisfy a typed equals with every spelling and form of the number, and no other number', async () => {
    const criterion = await compileOne({ operator: 'equals', value: '1250', operandType: 'number' });
    for (const held of [1250, '1250', '1250.0', '1.25E3', JSON.rawJSON('1250.000')])
      expect(criterion.meaning?.test(held), JSON.stringify(held)).toBe(true);
    for (const held of [125, '12500', 'abc', 1250.5])
      expect(criterion.meaning?.test(held), String(held)).toBe(false);
  });

  it('should judge a generic text filter on a number read as a double by its value', async () => {
    const criterion = await compileOne({ operator: 'equals', value: '2.50' });
    expect(criterion.meaning?.test(2.5)).toBe(true);
    expect(criterion.meaning?.test(3)).toBe(false);
  });
});

describe('typed operands against their patterns', () => {
  const number = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 2.5, 25, 0.25, 3, 30, 1e21, 1e-7, 1250),
    fc.integer({ min: -300, max: 300 }).map((n) => n / 10),
  );

  it('should hold a number (as text or as a double) to a typed equals exactly where its pattern matches', async () => {
    await fc.assert(
      fc.asyncProperty(number, number, async (filter, other) => {
        const criterion = await compileOne({
          operator: 'equals',
          value: String(filter),
          operandType: 'number',
        });
        for (const held of [...spellings(filter), ...spellings(other)])
          expect(criterion.meaning?.test(held), held).toBe(patternMatches(criterion, held));
        // A double read from JSON: the same value or not, whatever its spelling was.
        expect(criterion.meaning?.test(other)).toBe(Object.is(other, filter) || other === filter);
      }),
      { numRuns: 200 },
    );
  });

  it('should accept every UTC spelling a typed DateTime pattern matches, and no other instant', async () => {
    const instant = fc.integer({ min: 0, max: 4_102_444_800_000 });
    await fc.assert(
      fc.asyncProperty(instant, fc.constantFrom(1, 1000, 3_600_000), async (at, delta) => {
        const criterion = await compileOne({
          operator: 'equals',
          value: new Date(at).toISOString(),
          operandType: 'dateTime',
        });
        for (const held of utcSpellings(at)) {
          expect(patternMatches(criterion, held), held).toBe(true);
          expect(criterion.meaning?.test(held), held).toBe(true);
        }
        for (const held of utcSpellings(at + delta)) expect(criterion.meaning?.test(held), held).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});

describe('instants by meaning', () => {
  it('should satisfy a typed DateTime equals with the same instant in any spelling, never another', async () => {
    const criterion = await compileOne({
      operator: 'equals',
      value: '2024-01-15T00:00:00.000Z',
      operandType: 'dateTime',
    });
    for (const held of [
      '2024-01-15T00:00:00Z',
      '2024-01-15T02:00:00+02:00',
      { $date: '2024-01-15T00:00:00Z' },
    ])
      expect(criterion.meaning?.test(held), JSON.stringify(held)).toBe(true);
    for (const held of ['2024-01-15T00:00:01Z', 'tomorrow'])
      expect(criterion.meaning?.test(held)).toBe(false);
  });
});

describe("a caller's matches", () => {
  it('should be judged with its Java meaning, as a whole value', async () => {
    const criterion = await compileOne({ operator: 'matches', value: 'open|delivered' });
    expect(['open', 'delivered'].map((t) => criterion.meaning?.test(t))).toEqual([true, true]);
    expect(criterion.meaning?.test('undelivered')).toBe(false);
  });

  it('should read Java classes as Java does', async () => {
    const criterion = await compileOne({ operator: 'matches', value: '\\s[a-c]+.' });
    expect(criterion.meaning?.test(' abcx')).toBe(true);
    // Java's \s is ASCII whitespace only; its `.` refuses U+0085.
    expect(criterion.meaning?.test('\u00a0abcx')).toBe(false);
    expect(criterion.meaning?.test(' abc\u0085')).toBe(false);
  });

  it('should leave a word boundary unjudged (Java and JavaScript disagree on it)', async () => {
    const [criterion] = await compileCriteria([{ fieldName: 'f', operator: 'matches', value: '\\bab', at }], {
      matchesMode: 'regex',
      guard: defaultPatternGuard(),
      argumentName: 'filter',
    });
    expect(criterion?.meaning).toBeUndefined();
  });
});
