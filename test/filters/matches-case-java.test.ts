/**
 * `UPSTREAM_MATCHES_CASE=insensitive` in the real engine: an upstream that compiles every pattern with
 * `Pattern.CASE_INSENSITIVE` (alone, or with `UNICODE_CASE`) and runs it with `matches()` (`UPSTREAM_MATCHES=regex`)
 * or `find()` (`=find`), sent what the gateway sends (`(?-i)p`, `(?-i)\A(?:p)\z`), gives `String.matches(p)`'s
 * case-sensitive verdict on every text, for every operator the gateway compiles (`caseInsensitive` included:
 * its classes list the cases themselves, so `(?-i)` leaves them whole), typed numbers and instants, batched id
 * alternations and caller patterns. Without the prefix the same upstream answers other cases. And the
 * emulator's dialect (`EMULATOR_MATCHES_CASE=insensitive`) reads patterns as that JVM does. Installs
 * `openjdk-17-jdk-headless` when `java` is missing, as the other Java tests do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaPattern } from '../../emulator/operations/filter-command.ts';
import { dateTimePattern } from '../../src/filters/date-time-pattern.ts';
import { numberPattern } from '../../src/filters/number-pattern.ts';
import { idPattern } from '../../src/upstream/batching/batch-plan.ts';
import { framePattern } from '../../src/upstream/dialect/matches-pattern.ts';
import { sampledFilterPatterns } from '../support/sampled-filter-patterns.ts';
import { javaLines, useJava } from '../support/java/java-pairs.ts';

useJava();

/** Per pair: [String.matches, CI matches(), CI find(), CI|UNICODE_CASE matches(), CI|UNICODE_CASE find()]. */
function javaVerdicts(pairs: readonly (readonly [string, string])[]): boolean[][] {
  return javaLines('case', pairs).map((line) => Array.from(line, (bit) => bit === '1'));
}

/** Each code point in its other case (a letter outside the BMP stays one character). */
const swapCase = (text: string) =>
  Array.from(text, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

const letters = fc.constantFrom(
  ...'aAbBzZ1 .|-\n'.split(''),
  ...['é', 'É', 'ß', 'ẞ', 'k', 'K', '\u212a', 'σ', 'Σ', 'ς', 'i', 'İ', 'ı', '𐐀', '𐐨'],
);
const text = fc.string({ unit: letters, maxLength: 5 });
const CALLER_PATTERNS = ['a', 'a|b', '[ab]+', '[a-z]*', 'A.*', '\\p{Lower}+', '\\x61b', '(?:a|B)b*', ''];

const REGEX = { matchesMode: 'regex', matchesCase: 'insensitive' } as const;
const FIND = { matchesMode: 'find', matchesCase: 'insensitive' } as const;

/** Every pattern the gateway writes, each with texts in its own and in other cases. */
async function patternsAndTexts(): Promise<[string, string[]][]> {
  const out: [string, string[]][] = [];
  for (const { pattern, value, other } of await sampledFilterPatterns(text, 28, 'regex')) {
    const subjects = [value, swapCase(value), value.toUpperCase(), `x${swapCase(value)}`, other];
    out.push([pattern, subjects]);
  }
  // Typed numbers (`2.5E0` against `2.5e0`) and instants (`…T…Z` against `…t…z`).
  for (const n of [2.5, 1e21, -0.25, 3]) {
    const spelled = [String(n), n.toExponential(), n.toExponential().toUpperCase()];
    out.push([numberPattern(n), spelled]);
  }
  const instant = new Date(1_700_000_000_123).toISOString();
  out.push([dateTimePattern(instant), [instant, instant.toLowerCase(), instant.replace('Z', '+00:00')]]);
  // A batched id lookup and caller patterns the guard accepts.
  const ids = ['AbC-1', 'abc-1', '65f0c1e2a9'];
  out.push([ids.slice(1).map(idPattern).join('|'), [...ids, 'ABC-1', '65F0C1E2A9']]);
  for (const pattern of CALLER_PATTERNS) out.push([pattern, ['a', 'A', 'ab', 'AB', 'Ab', 'b', 'B', '']]);
  return out;
}

describe('(?-i) under Pattern.CASE_INSENSITIVE', () => {
  it('should give every operator its case-sensitive verdict under matches() and find(), and only with the prefix', async () => {
    const cases = await patternsAndTexts();
    const pairs: [string, string][] = [];
    for (const [pattern, subjects] of cases) {
      for (const subject of subjects) {
        pairs.push(
          [pattern, subject],
          [framePattern(pattern, REGEX), subject],
          [framePattern(pattern, FIND), subject],
        );
      }
    }
    const verdicts = javaVerdicts(pairs);
    const wrong: string[] = [];
    let bareDiffers = 0;
    for (let i = 0; i < pairs.length; i += 3) {
      const [pattern, subject] = pairs[i]!;
      const [reference, bareCi] = verdicts[i]!;
      const [, regexCi, , regexCiu] = verdicts[i + 1]!;
      const [, , findCi, , findCiu] = verdicts[i + 2]!;
      if (bareCi !== reference) bareDiffers += 1;
      for (const [name, verdict] of Object.entries({ regexCi, regexCiu, findCi, findCiu })) {
        if (verdict !== reference)
          wrong.push(`${name}: ${JSON.stringify(pattern)} on ${JSON.stringify(subject)}`);
      }
    }
    expect(wrong).toEqual([]);
    // Not vacuous: matches and misses both occur, and without (?-i) the upstream answers other cases.
    const references = verdicts.filter((_, i) => i % 3 === 0).map(([reference]) => reference);
    expect(references.filter(Boolean).length).toBeGreaterThan(references.length / 10);
    expect(references.filter((r) => r === false).length).toBeGreaterThan(references.length / 10);
    expect(bareDiffers).toBeGreaterThan(references.length / 20);
    expect(framePattern('a|b', FIND)).toBe('(?-i)\\A(?:a|b)\\z');
    expect(framePattern('a|b', REGEX)).toBe('(?-i)a|b');
  });

  it('should be what EMULATOR_MATCHES_CASE=insensitive answers: the JVM’s CASE_INSENSITIVE verdicts, (?-i) honoured', async () => {
    const cases = await patternsAndTexts();
    const patterns = [
      ...new Set(cases.map(([pattern]) => pattern)),
      '(?i)a(?-i)b',
      'a(?-i:b)c',
      '(?-i)a|b',
      '[^a]',
      '(?-i)\\p{Upper}',
    ];
    const texts = ['a', 'A', 'ab', 'Ab', 'aB', 'AB', 'abc', 'AbC', 'aBc', 'b', 'B', 'é', 'É', '2.5E0', 'x'];
    const pairs = patterns.flatMap((pattern) =>
      [...texts, ...(cases.find(([p]) => p === pattern)?.[1] ?? [])].map(
        (subject) => [pattern, subject] as [string, string],
      ),
    );
    const verdicts = javaVerdicts(pairs);
    const refused = new Set<string>();
    const disagreements = pairs.filter(([pattern, subject], i) => {
      const matches = compileJavaPattern(pattern, false, true);
      const found = compileJavaPattern(pattern, true, true);
      if (typeof matches === 'string' || typeof found === 'string') {
        refused.add(`${pattern}: ${String(matches)}`);
        return false;
      }
      const [, ciMatches, ciFind] = verdicts[i] ?? [];
      return matches.test(subject) !== ciMatches || found.test(subject) !== ciFind;
    });
    expect(disagreements).toEqual([]);
    // The one construct the emulator does not run ignoring case, refused (never answered wrong); the
    // gateway's prefix turns case-insensitivity off before it, so it runs when the gateway sends it.
    expect([...refused]).toEqual([
      '\\p{Lower}+: unsupported regular expression in filter: \\p{Lower} under (?i) is not emulated',
    ]);
    expect(compileJavaPattern(framePattern('\\p{Lower}+', REGEX), false, true)).toBeInstanceOf(RegExp);
  });
});
