/**
 * The anchoring of `UPSTREAM_MATCHES=find` in the real engine: for every pattern the gateway compiles (and
 * caller-style patterns), Java's `Matcher.find()` of `\A(?:p)\z` gives `String.matches(p)`'s verdict on any
 * text, line terminators included, while `^(?:p)$` does not (Java's `$` also matches before a final line
 * terminator). And the emulator's part-matching dialect (`EMULATOR_MATCHES=find`) gives `Matcher.find()`'s
 * verdict. Installs `openjdk-17-jdk-headless` when `java` is missing, as the other Java tests do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaPattern } from '../../emulator/operations/filter-command.ts';
import { compileCriteria } from '../../src/filters/compile-criteria.ts';
import { anchorForFind } from '../../src/upstream/dialect/matches-pattern.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { sampledFilterPatterns } from '../support/sampled-filter-patterns.ts';
import { javaLines, useJava } from '../support/java/java-pairs.ts';

useJava();

/**
 * Per pair, in Java: [String.matches, find of \A(?:p)\z, find of ^(?:p)$, find of p, then an upstream's own
 * wrappings without a group: matches of "^"+p+"$", find of "^"+p+"$", find of "\A"+p+"\z"].
 */
function javaVerdicts(pairs: readonly (readonly [string, string])[]): boolean[][] {
  return javaLines('find', pairs).map((line) => Array.from(line, (bit) => bit === '1'));
}

const letters = fc.constantFrom(...'aAb1 .|-\n\r'.split(''), '\u0085', '\u2028', 'é');
const text = fc.string({ unit: letters, maxLength: 5 });
const CALLER_PATTERNS = ['a', 'a|b', '[ab]+', 'a.*', '.', '(?:a|b)b*', 'a$', '^a', ''];

describe('\\A(?:…)\\z under Java’s Matcher.find()', () => {
  it('should give String.matches’s verdict for every compiled and caller pattern, where ^(?:…)$ does not', async () => {
    const pairs: [string, string][] = [];
    for (const { pattern, value, other } of await sampledFilterPatterns(text, 22, 'find')) {
      for (const subject of [value, `${value}\n`, `x${value}`, `${value}x`, other])
        pairs.push([pattern, subject]);
    }
    for (const pattern of CALLER_PATTERNS) {
      for (const subject of ['a', 'a\n', 'ba', 'ab', 'b\r\n', '']) pairs.push([pattern, subject]);
    }
    const verdicts = javaVerdicts(pairs);
    const disagreements = pairs.filter((_, i) => verdicts[i]?.[0] !== verdicts[i]?.[1]);
    expect(disagreements).toEqual([]);
    // Not vacuous: matches and misses both occur, and ^(?:…)$ is wrong on a value ending in a line break.
    expect(verdicts.filter(([matches]) => matches).length).toBeGreaterThan(pairs.length / 10);
    expect(verdicts.filter(([matches]) => !matches).length).toBeGreaterThan(pairs.length / 10);
    const dollarWrong = pairs.filter((_, i) => verdicts[i]?.[0] !== verdicts[i]?.[2]);
    expect(dollarWrong).toContainEqual(['a', 'a\n']);
    expect(anchorForFind('a|b')).toBe('\\A(?:a|b)\\z');
  });

  it('should give String.matches’s verdict for every compiled pattern under an upstream’s own wrapping, alternations grouped', async () => {
    const guard = defaultPatternGuard();
    const pairs: [string, string][] = [];
    for (const { pattern, value, other } of await sampledFilterPatterns(text, 36, 'regex')) {
      for (const subject of [value, `${value}\n`, `x${value}`, `${value}x`, other, `un${other}`])
        pairs.push([pattern, subject]);
    }
    // A caller's alternation is grouped too; the in of the report, open|delivered.
    for (const values of [['open', 'delivered']]) {
      const [criterion] = await compileCriteria(
        [{ fieldName: 'f', operator: 'in', values, at: { value: 'v', values: 'v', caseInsensitive: 'c' } }],
        { matchesMode: 'regex', guard, argumentName: 'filter' },
      );
      for (const subject of ['open', 'delivered', 'undelivered', 'open_claim', 'reopen'])
        pairs.push([criterion?.value ?? '', subject]);
    }
    const verdicts = javaVerdicts(pairs);
    // Whole-value match, "^"+p+"$" under matches(), "\A"+p+"\z" under find(): always the same verdict.
    const wrapped = pairs.filter((_, i) => {
      const [matches, , , , caret, , anchored] = verdicts[i] ?? [];
      return matches !== caret || matches !== anchored;
    });
    expect(wrapped).toEqual([]);
    // "^"+p+"$" under find() too, but for a text ending in a line terminator (Java's $ matches before it):
    // the gateway's check of every answered record catches that one (docs/upstream-contract.md).
    const found = pairs.filter(([, subject], i) => {
      const [matches, , , , , caretFind] = verdicts[i] ?? [];
      return matches !== caretFind && !/[\n\r\u0085\u2028\u2029]$/.test(subject);
    });
    expect(found).toEqual([]);
    expect(pairs.some((_, i) => verdicts[i]?.[0] === true)).toBe(true);
  });

  it('should be what EMULATOR_MATCHES=find answers: Java’s Matcher.find() of the pattern itself', () => {
    const patterns = [...CALLER_PATTERNS, 'b$', 'a\\Z', '\\Aa', 'a\\z', '(?m)^b', '[^a]', 'a|^b', 'x?'];
    const texts = ['a', 'a\n', 'ba', 'ab', 'b\r\n', '', 'b\u0085', 'xa\nb'];
    const pairs = patterns.flatMap((pattern) =>
      texts.map((subject) => [pattern, subject] as [string, string]),
    );
    const verdicts = javaVerdicts(pairs);
    const disagreements = pairs.filter(([pattern, subject], i) => {
      const compiled = compileJavaPattern(pattern, true);
      return typeof compiled === 'string' || compiled.test(subject) !== verdicts[i]?.[3];
    });
    expect(disagreements).toEqual([]);
  });
});
