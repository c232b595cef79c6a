/**
 * The compiled patterns mean the same to the real upstream engine, Java's `String.matches`, as to
 * JavaScript. Installs `openjdk-17-jdk-headless` when `java` is missing, as the browser test does for
 * chromium.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCriteria, type FilterOperator } from '../../src/filters/compile-criteria.ts';
import { NOTHING } from '../../src/filters/literal-pattern.ts';
import { dateTimePattern } from '../../src/filters/date-time-pattern.ts';
import { numberPattern } from '../../src/filters/number-pattern.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { utcSpellings } from '../support/date-time-spellings.ts';
import { spellings } from '../support/number-spellings.ts';
import { javaLines, useJava } from '../support/java/java-pairs.ts';
import { HAND_PICKED } from '../support/java/java-matches-corpus.ts';

useJava();

/** `text.matches(pattern)` in Java, for each pair. */
function javaMatches(pairs: readonly (readonly [string, string])[]): boolean[] {
  return javaLines('matches', pairs).map((line) => line === '1');
}

const letters = fc.constantFrom(
  ...'aAzZ1 .|()*+?[]{}^$\\-&~#\n\r\t'.split(''),
  ...['ǅ', 'ǆ', 'Ǆ', 'ß', 'ẞ', 'İ', 'i', 'ı', 'k', 'K', '\u212a', 'σ', 'ς', 'Σ', 'θ', 'ϑ', 'ϴ', '𐐀', '𐐨'],
  ...['ᾳ', 'ᾼ', 'µ', 'μ', 'ſ', 's', 'S', '\u2028', '\u0085', '\ufeff', '😀'],
);
const text = fc.string({ unit: letters, maxLength: 5 });
const operator = fc.constantFrom<FilterOperator>('equals', 'in', 'contains', 'startsWith', 'endsWith');

describe("agreement with Java's String.matches", () => {
  it('should match in Java exactly where it matches in JavaScript, with and without the u flag', async () => {
    const cases = fc.sample(fc.tuple(operator, text, text, text, fc.boolean()), { numRuns: 600, seed: 10 });
    const pairs: [string, string][] = [];
    for (const [op, value, other, filler, caseInsensitive] of cases) {
      const operand = op === 'in' ? { values: [value, other] } : { value };
      const [criterion] = await compileCriteria(
        [
          {
            fieldName: 'f',
            operator: op,
            caseInsensitive,
            ...operand,
            at: { value: 'v', values: 'v', caseInsensitive: 'c' },
          },
        ],
        { matchesMode: 'regex', guard: defaultPatternGuard(), argumentName: 'filter' },
      );
      const pattern = criterion!.value;
      // Around the value in another case, and the raw sample: both hits and misses.
      for (const subject of [`${filler}${value.toUpperCase()}${filler}`, value.toLowerCase(), other, filler])
        pairs.push([pattern, subject]);
    }
    // The two patterns that stand for no text and for the empty text.
    for (const subject of ['', 'a', '\n']) pairs.push([NOTHING, subject], ['(?:)', subject]);
    const java = javaMatches(pairs);
    const disagreements = pairs.filter(([pattern, subject], i) => {
      const js = new RegExp(`^(?:${pattern})$`, 'u').test(subject);
      const jsNoU = new RegExp(`^(?:${pattern})$`).test(subject);
      return java[i] !== js || js !== jsNoU;
    });
    expect(disagreements).toEqual([]);
    expect(java.filter(Boolean).length).toBeGreaterThan(pairs.length / 10);
  });

  it("should match a typed number or DateTime filter's pattern in Java exactly where JavaScript does", () => {
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 2.5, 25, 0.25, 3, 30, 1e21, 1e-7),
      fc.integer({ min: -300, max: 300 }).map((n) => n / 10),
    );
    const pairs: [string, string][] = [];
    for (const [filter, other] of fc.sample(fc.tuple(number, number), { numRuns: 150, seed: 21 })) {
      for (const text of [...spellings(filter), ...spellings(other)])
        pairs.push([numberPattern(filter), text]);
    }
    // And a typed DateTime filter's, against UTC spellings of the same and of nearby instants.
    const instant = fc.integer({ min: 0, max: 4_102_444_800_000 });
    const apart = fc.constantFrom(0, 1, 1000, 3_600_000);
    for (const [filter, delta] of fc.sample(fc.tuple(instant, apart), { numRuns: 100, seed: 21 })) {
      const pattern = dateTimePattern(new Date(filter).toISOString());
      for (const text of [...utcSpellings(filter), ...utcSpellings(filter + delta)])
        pairs.push([pattern, text]);
    }
    const java = javaMatches(pairs);
    const disagreements = pairs.filter(
      ([pattern, text], i) => java[i] !== new RegExp(`^(?:${pattern})$`).test(text),
    );
    expect(disagreements).toEqual([]);
    expect(java.filter(Boolean).length).toBeGreaterThan(pairs.length / 3);
  });

  it("should hold an answered record to the filter exactly where Java's String.matches of what was sent holds it", async () => {
    // The run-time check (condition-meaning.ts) judges a record by the caller's filter, not by the pattern:
    // on text, its verdict must be the real engine's on the pattern sent, or it would refuse right answers.
    const guard = defaultPatternGuard();
    const at = { value: 'v', values: 'v', caseInsensitive: 'c' };
    const judged: { test: (text: string) => boolean; pattern: string; text: string }[] = [];
    const add = async (
      condition: Parameters<typeof compileCriteria>[0][number],
      texts: readonly string[],
    ) => {
      const [criterion] = await compileCriteria([condition], {
        matchesMode: 'regex',
        guard,
        argumentName: 'f',
      });
      const meaning = criterion?.meaning;
      if (criterion === undefined || meaning === undefined) return;
      for (const text of texts) judged.push({ test: (t) => meaning.test(t), pattern: criterion.value, text });
    };
    const cases = fc.sample(fc.tuple(operator, text, text, text, fc.boolean()), { numRuns: 300, seed: 36 });
    for (const [op, value, other, filler, caseInsensitive] of cases) {
      const operand = op === 'in' ? { values: [value, other] } : { value };
      await add({ fieldName: 'f', operator: op, caseInsensitive, ...operand, at }, [
        value,
        other,
        `${filler}${value}`,
        `${value}${filler}`,
        value.toUpperCase(),
      ]);
    }
    // Caller patterns the guard accepts, on texts near their edges.
    for (const [pattern, subject] of HAND_PICKED) {
      if ((await guard.check(pattern)).ok)
        await add({ fieldName: 'f', operator: 'matches', value: pattern, at }, [subject]);
    }
    const java = javaMatches(judged.map(({ pattern, text: t }) => [pattern, t] as const));
    const disagreements = judged
      .filter(({ test, text: t }, i) => test(t) !== java[i])
      .map(({ pattern, text: t }) => [pattern, t]);
    expect(disagreements).toEqual([]);
    expect(java.filter(Boolean).length).toBeGreaterThan(judged.length / 10);
  });
});
