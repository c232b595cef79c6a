/**
 * The filter compiler: what each operator sends to the upstream's `matches`, and that the pattern sent
 * matches exactly what the operator promises, in the upstream's full-string sense.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rejectPattern } from '../../emulator/operations/regex-guard.ts';
import {
  compileCriteria,
  MAX_COMPILED_PATTERN_LENGTH,
  MAX_IN_VALUES,
  type FilterCondition,
  type FilterOperator,
} from '../../src/filters/compile-criteria.ts';
import { FilterError } from '../../src/errors/filter-error.ts';
import { type PatternGuard } from '../../src/upstream/pattern-guard/pattern-guard.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import type { MatchesMode } from '../../src/upstream/client/types.ts';

const at = { value: 'filter.criteria[0].value', values: 'filter.criteria[0].values', caseInsensitive: 'ci' };

function condition(
  operator: FilterOperator,
  operand: string | readonly string[],
  caseInsensitive = false,
): FilterCondition {
  return typeof operand === 'string'
    ? { fieldName: 'name', operator, value: operand, caseInsensitive, at }
    : { fieldName: 'name', operator, values: operand, caseInsensitive, at };
}

interface Options {
  mode?: MatchesMode;
  guard?: PatternGuard;
}

async function compileAll(conditions: FilterCondition[], options: Options = {}) {
  return compileCriteria(conditions, {
    matchesMode: options.mode ?? 'regex',
    guard: options.guard ?? defaultPatternGuard(),
    argumentName: 'filter',
  });
}

/** The pattern sent upstream for one condition. */
async function patternOf(c: FilterCondition, options: Options = {}): Promise<string> {
  const [criterion] = await compileAll([c], options);
  expect(criterion?.operator).toBe('matches');
  return criterion!.value;
}

/** As the upstream applies `matches`: the whole text. `u` as strict JavaScript, '' as the emulator. */
const fullMatch = (pattern: string, text: string, flags = 'u') =>
  new RegExp(`^(?:${pattern})$`, flags).test(text);

/** The refusal a compilation ends with. */
async function refusal(promise: Promise<unknown>): Promise<FilterError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FilterError);
  return error as FilterError;
}

/** A guard double that refuses everything, counting its calls. */
function refusingGuard(reason: string): PatternGuard & { checked: string[] } {
  const checked: string[] = [];
  return {
    checked,
    check(pattern) {
      checked.push(pattern);
      return Promise.resolve({ ok: false, reason });
    },
  };
}

describe('the literal operators', () => {
  it.each<[FilterOperator, string, string]>([
    ['equals', 'a.b', 'a\\.b'],
    ['contains', 'fixed', '[\\s\\S]*fixed[\\s\\S]*'],
    ['startsWith', 'Home (', 'Home\\x20\\([\\s\\S]*'],
    ['endsWith', '$1', '[\\s\\S]*\\$1'],
  ])('should compile %s %j to %j', async (operator, value, expected) => {
    expect(await patternOf(condition(operator, value))).toBe(expected);
  });

  it('should compile in to an alternation of escaped values, each matching a whole value', async () => {
    const pattern = await patternOf(condition('in', ['PAID', 'SHIPPED', 'a|b']));
    // Grouped, so that an upstream wrapping the value as "^" + value + "$" anchors every alternative.
    expect(pattern).toBe('(?:PAID|SHIPPED|a\\|b)');
    expect(['PAID', 'SHIPPED', 'a|b'].map((t) => fullMatch(pattern, t))).toEqual([true, true, true]);
    expect(['PAIDSHIPPED', 'PAI', 'a', 'b'].map((t) => fullMatch(pattern, t))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('should match nothing for an empty in, and only the empty text for an empty value', async () => {
    const none = await patternOf(condition('in', []));
    expect(['', 'a', '\n'].some((t) => fullMatch(none, t) || fullMatch(none, t, ''))).toBe(false);
    for (const c of [condition('in', ['']), condition('equals', '')]) {
      const empty = await patternOf(c);
      // Never an empty value, which an upstream could read as "no filter".
      expect(empty).not.toBe('');
      expect([fullMatch(empty, ''), fullMatch(empty, 'a')]).toEqual([true, false]);
    }
  });

  it('should match values across line breaks with contains, startsWith and endsWith', async () => {
    const text = 'first line\r\nfixed rate\u2028last line\n';
    for (const [operator, value] of [
      ['contains', 'fixed'],
      ['startsWith', 'first'],
      ['endsWith', 'line\n'],
    ] as const) {
      const pattern = await patternOf(condition(operator, value));
      expect(fullMatch(pattern, text), operator).toBe(true);
      expect(fullMatch(pattern, text, ''), operator).toBe(true);
    }
  });

  it('should match every text with an empty contains, startsWith or endsWith', async () => {
    for (const operator of ['contains', 'startsWith', 'endsWith'] as const) {
      const pattern = await patternOf(condition(operator, ''));
      expect(['', 'x', 'a\nb'].every((t) => fullMatch(pattern, t))).toBe(true);
    }
  });

  it('should treat regular-expression syntax as plain text', async () => {
    const pattern = await patternOf(condition('contains', '(x|y)*'));
    expect(fullMatch(pattern, 'z(x|y)*z')).toBe(true);
    expect(fullMatch(pattern, 'zxxz')).toBe(false);
    expect(fullMatch(await patternOf(condition('equals', 'a.c')), 'abc')).toBe(false);
  });

  it('should drop repeated values of in', async () => {
    expect(await patternOf(condition('in', ['a', 'b', 'a']))).toBe('(?:a|b)');
  });
});

describe('caseInsensitive', () => {
  it('should write each letter as a class of its cases (as typed first) and leave the rest escaped', async () => {
    expect(await patternOf(condition('equals', 'Home 1.5', true))).toBe('[Hh][oO][mM][eE]\\x201\\.5');
    expect(await patternOf(condition('contains', 'ab', true))).toBe('[\\s\\S]*[aA][bB][\\s\\S]*');
  });

  it('should match a title-case letter in all three of its cases, whichever is typed', async () => {
    for (const typed of ['ǅ', 'ǆ', 'Ǆ']) {
      const pattern = await patternOf(condition('equals', typed, true));
      for (const text of ['ǅ', 'ǆ', 'Ǆ']) expect(fullMatch(pattern, text), `${typed} ${text}`).toBe(true);
    }
  });

  it('should match ß and ẞ but never SS, and İ only as itself', async () => {
    const sharp = await patternOf(condition('equals', 'straße', true));
    expect(['STRAẞE', 'Straße'].every((t) => fullMatch(sharp, t))).toBe(true);
    expect(['STRASSE', 'strasse'].some((t) => fullMatch(sharp, t))).toBe(false);
    const dotted = await patternOf(condition('equals', 'İ', true));
    expect(fullMatch(dotted, 'İ')).toBe(true);
    expect(['i', 'I', 'i\u0307'].some((t) => fullMatch(dotted, t))).toBe(false);
  });

  it('should match letters that map to a case without being its inverse (Kelvin sign, final sigma)', async () => {
    const kelvin = await patternOf(condition('equals', 'k', true));
    expect(['k', 'K', '\u212a'].every((t) => fullMatch(kelvin, t))).toBe(true);
    const sigma = await patternOf(condition('equals', 'σ', true));
    expect(['σ', 'ς', 'Σ'].every((t) => fullMatch(sigma, t))).toBe(true);
  });

  it('should write a letter outside the BMP as an alternation, which the emulator reads without the u flag', async () => {
    const pattern = await patternOf(condition('equals', '𐐀', true));
    expect(pattern).toBe('(?:𐐀|𐐨)');
    for (const flags of ['', 'u']) {
      expect(fullMatch(pattern, '𐐨', flags)).toBe(true);
      // A class would have matched one half of another character's surrogate pair.
      expect(fullMatch(pattern, '\ud801', flags)).toBe(false);
    }
  });
});

/** The characters each side of a case-insensitive comparison, as the schema defines them. */
const sameLetter = (a: string, b: string) =>
  a === b || a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();

/** Whether `text` holds `value` at code point `offset`, exactly or ignoring case. */
function holdsAt(text: string[], value: string[], offset: number, caseInsensitive: boolean): boolean {
  if (offset < 0 || offset + value.length > text.length) return false;
  return value.every((c, i) => {
    const t = text[offset + i]!;
    return caseInsensitive ? sameLetter(c, t) : c === t;
  });
}

/** What each operator promises, on code points (as Java and a `u`-flag RegExp see a string). */
function definition(operator: FilterOperator, operand: string | string[], textString: string, ci: boolean) {
  const text = Array.from(textString);
  const whole = (v: string) => holdsAt(text, Array.from(v), 0, ci) && Array.from(v).length === text.length;
  if (typeof operand !== 'string') return operand.some(whole);
  const value = Array.from(operand);
  switch (operator) {
    case 'equals':
      return whole(operand);
    case 'startsWith':
      return holdsAt(text, value, 0, ci);
    case 'endsWith':
      return holdsAt(text, value, text.length - value.length, ci);
    default:
      return text.some((_, i) => holdsAt(text, value, i, ci)) || value.length === 0;
  }
}

const trickyChar = fc.constantFrom(
  ...'aAbB1 .|()*+?[]{}^$\\-&~#/\n\r'.split(''),
  ...['ǅ', 'ǆ', 'Ǆ', 'ß', 'ẞ', 'İ', 'i', 'I', 'ı', 'k', 'K', '\u212a', 'σ', 'ς', 'Σ', 'θ', 'ϑ', 'ϴ', 'Θ'],
  ...['𐐀', '𐐨', 'ᾳ', 'ᾼ', 'µ', 'μ', 'ſ', 's', 'S', 'Ⓐ', 'ⓐ', '\u2028', '\ufeff', '\ud800', '\udc00'],
);
const anyText = fc.oneof(
  fc.string({ unit: trickyChar, maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
/** Letters that share a case with others without being their plain lower or upper case, by lower case. */
const LOOKALIKES: Record<string, string[]> = {
  k: ['\u212a'],
  s: ['ſ'],
  i: ['ı', 'İ'],
  σ: ['ς'],
  θ: ['ϑ', 'ϴ'],
  μ: ['µ'],
  ß: ['ẞ', 'SS'],
  ǆ: ['ǅ'],
  ω: ['\u2126'],
  ᾳ: ['ᾼ'],
};
/** `value` with each character kept, or replaced by a case or a lookalike of it (as chosen by `picks`). */
function recase(value: string, picks: number[]): string {
  return Array.from(value, (c, i) => {
    const choices = [c, c.toLowerCase(), c.toUpperCase(), ...(LOOKALIKES[c.toLowerCase()] ?? [])];
    return choices[(picks[i] ?? 0) % choices.length];
  }).join('');
}
/** A text built around `value` (re-cased), or unrelated: both must be judged right. */
const textAround = (value: string) =>
  fc.oneof(
    anyText,
    fc
      .tuple(anyText, fc.array(fc.nat(), { maxLength: 8 }), anyText)
      .map(([before, picks, after]) => `${before}${recase(value, picks)}${after}`),
    fc.array(fc.nat(), { maxLength: 8 }).map((picks) => recase(value, picks)),
  );

describe('what a compiled pattern matches', () => {
  it('should match exactly the texts its operator promises, for any unicode text and value', async () => {
    const single = fc.constantFrom<FilterOperator>('equals', 'contains', 'startsWith', 'endsWith');
    const singleCase = fc
      .tuple(single, anyText, fc.boolean())
      .chain(([operator, value, ci]) =>
        textAround(value).map((text) => ({ operator, operand: value, ci, text })),
      );
    const inCase = fc
      .tuple(fc.array(anyText, { maxLength: 4 }), fc.boolean())
      .chain(([values, ci]) =>
        fc
          .oneof(anyText, ...values.map(textAround))
          .map((text) => ({ operator: 'in' as const, operand: values, ci, text })),
      );
    await fc.assert(
      fc.asyncProperty(fc.oneof(singleCase, inCase), async ({ operator, operand, ci, text }) => {
        const pattern = await patternOf(condition(operator, operand, ci));
        expect(fullMatch(pattern, text)).toBe(definition(operator, operand, text, ci));
        // The emulator reads patterns without the `u` flag: the same answer for well-formed text.
        if (text.isWellFormed() && [operand].flat().every((v) => v.isWellFormed()))
          expect(fullMatch(pattern, text, '')).toBe(definition(operator, operand, text, ci));
      }),
      { numRuns: 2000 },
    );
  });

  it('should only send patterns the emulator runs: no nested or overlapping repetition', async () => {
    const operator = fc.constantFrom<FilterOperator>('equals', 'contains', 'startsWith', 'endsWith');
    await fc.assert(
      fc.asyncProperty(operator, anyText, fc.boolean(), async (op, value, ci) => {
        expect(rejectPattern(await patternOf(condition(op, value, ci)))).toBeUndefined();
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(anyText, { maxLength: 5 }), fc.boolean(), async (values, ci) => {
        expect(rejectPattern(await patternOf(condition('in', values, ci)))).toBeUndefined();
      }),
    );
  });
});

describe('limits', () => {
  it(`should refuse an in with more than ${MAX_IN_VALUES} values, naming the input`, async () => {
    const values = Array.from({ length: MAX_IN_VALUES + 1 }, (_, i) => `v${i}`);
    const error = await refusal(compileAll([condition('in', values)]));
    expect(error.argumentName).toBe('filter');
    expect(error.message).toContain('"filter.criteria[0].values"');
    expect(error.message).toContain(String(MAX_IN_VALUES));
    expect(await patternOf(condition('in', values.slice(1)))).toContain('v100');
  });

  it(`should refuse a compiled pattern longer than ${MAX_COMPILED_PATTERN_LENGTH} characters`, async () => {
    const text = 'a'.repeat(1000);
    // Four characters per letter once case-insensitive: the same text passes case-sensitive only.
    expect(await patternOf(condition('contains', text))).toHaveLength(1000 + 14);
    const error = await refusal(compileAll([condition('contains', text, true)]));
    expect(error.message).toMatch(/would be 4014 characters, more than 4000.*caseInsensitive/);
    const huge = await refusal(
      compileAll([condition('equals', 'x'.repeat(MAX_COMPILED_PATTERN_LENGTH + 1))]),
    );
    expect(huge.message).toContain('"filter.criteria[0].value"');
  });
});

describe('mistakes', () => {
  it.each<[string, FilterCondition, RegExp]>([
    [
      'in without values',
      { ...condition('in', 'x'), value: null },
      /"filter.criteria\[0\].values" is required/,
    ],
    [
      'in with a value',
      { ...condition('in', ['x']), value: 'y' },
      /"filter.criteria\[0\].value" does not apply/,
    ],
    ['equals without a value', { ...condition('equals', 'x'), value: undefined }, /value" is required/],
    ['contains with values', { ...condition('contains', 'x'), values: ['y'] }, /values" applies to the in/],
    ['matches with caseInsensitive', condition('matches', 'x', true), /"ci" does not apply to matches/],
  ])('should refuse %s, naming the input', async (_case, c, message) => {
    const error = await refusal(compileAll([c]));
    expect(error.message).toMatch(message);
  });

  it('should report the first refused condition in input order, whichever the guard answers first', async () => {
    const slowGuard: PatternGuard = {
      check: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { ok: false, reason: 'slow' };
      },
    };
    const first = { ...condition('matches', '(a+)+'), at: { ...at, value: 'first' } };
    const second = { ...condition('in', ['x']), value: 'oops', at: { ...at, value: 'second' } };
    const error = await refusal(compileAll([first, second], { guard: slowGuard }));
    expect(error.message).toContain('"first"');
  });
});

describe('matches, the raw regular expression', () => {
  it('should send an accepted pattern as written, an alternation grouped', async () => {
    expect(await patternOf(condition('matches', 'Home.*|Car'))).toBe('(?:Home.*|Car)');
    expect(await patternOf(condition('matches', 'Home.*'))).toBe('Home.*');
  });

  it("should refuse a pattern the guard refuses, with the guard's reason", async () => {
    const guard = refusingGuard('nested quantifier (a+)+');
    const error = await refusal(compileAll([condition('matches', '(a+)+$')], { guard }));
    expect(error.message).toContain('nested quantifier (a+)+');
    expect(error.message).toContain('"filter.criteria[0].value"');
    expect(guard.checked).toEqual(['(a+)+$']);
    const tooLong = await refusal(compileAll([condition('matches', 'a'.repeat(513))]));
    expect(tooLong.message).toContain('more than the 512 accepted');
  });

  it('should never ask the guard about the patterns the gateway compiles itself', async () => {
    const guard = refusingGuard('never');
    const literal = ['equals', 'contains', 'startsWith', 'endsWith'] as const;
    await compileAll([...literal.map((op) => condition(op, 'x', true)), condition('in', ['x'])], { guard });
    expect(guard.checked).toEqual([]);
  });
});

describe('UPSTREAM_MATCHES=exact', () => {
  it('should send equals and matches as written: the upstream compares by equality', async () => {
    const guard = refusingGuard('not a regular expression here');
    const criteria = await compileAll([condition('equals', 'a.b'), condition('matches', '(a+)+')], {
      mode: 'exact',
      guard,
    });
    expect(criteria.map((c) => c.value)).toEqual(['a.b', '(a+)+']);
    expect(guard.checked).toEqual([]);
  });

  it.each<[string, FilterCondition]>([
    ['in', condition('in', ['a'])],
    ['contains', condition('contains', 'a')],
    ['startsWith', condition('startsWith', 'a')],
    ['endsWith', condition('endsWith', 'a')],
    ['a case-insensitive equals', condition('equals', 'a', true)],
  ])('should refuse %s, saying so', async (_case, c) => {
    const error = await refusal(compileAll([c], { mode: 'exact' }));
    expect(error.message).toContain('UPSTREAM_MATCHES=exact');
    expect(error.message).toMatch(/only equals \(case sensitive\) and matches can be honoured/);
  });
});
