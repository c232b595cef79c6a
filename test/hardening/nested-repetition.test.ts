/**
 * Nested repetition against a real JVM. Java's matcher holds every turn of a repeated group on its
 * stack, and nested counts multiply: `(?:(?:a*b){100}){100}` repeats each group at most 100 times, yet
 * `String.matches` on JDK 17 with the default thread stack throws `StackOverflowError` on about 2,000
 * characters, which the upstream answers 500. The guard bounds the stack a pattern can need
 * (`src/upstream/pattern-guard/java-stack-depth.ts`); here:
 *
 * - each refused pattern really overflows Java, and is refused with a reason naming nested repetition,
 *   through the gateway as `BAD_USER_INPUT` blamed on the caller, while another user is served;
 * - every pattern the guard accepts, from hand-picked ones just under the bound and generated nestings,
 *   runs without overflow on subjects up to `UPSTREAM_MAX_DATA_BYTES` characters (the longest value the
 *   gateway writes) that stack as many turns as the pattern allows.
 *
 * The JVM runs interpreted (`-Xint`): interpreted frames are the largest, so this is the worst case (an
 * upstream that has just started); JIT-compiled, the same patterns overflow only later.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '../../src/config/defaults.ts';
import { parseJavaRegex } from '../../src/upstream/pattern-guard/java-regex-parser.ts';
import { MAX_JAVA_STACK_UNITS, javaStackUnits } from '../../src/upstream/pattern-guard/java-stack-depth.ts';
import { type PatternVerdict } from '../../src/upstream/pattern-guard/pattern-guard.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { useJavaRegexTimer } from '../support/java/java-regex-timer.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES } from '../support/post-graphql.ts';

const java = useJavaRegexTimer(['-Xint']);
// A patient analysis: on a loaded machine a timed-out analysis would refuse, and prove nothing here.
const guard = defaultPatternGuard({ analysisTimeoutMillis: 60_000 });
const MAX_LENGTH = SETTING_DEFAULTS.UPSTREAM_MAX_DATA_BYTES;
/** Java's limit per run: these patterns are linear, so only a stack overflow or a bug could take long. */
const LIMIT_MILLIS = 60_000;
const reasonOf = (verdict: PatternVerdict): string => (verdict.ok ? '' : verdict.reason);

/** The patterns, and others of the family, each with a subject of 2,000 characters it overflows on. */
const REFUSED: readonly (readonly [string, string])[] = [
  ['(?:(?:a*b){100}){100}', 'b'.repeat(2_000)],
  ['(?:(?:[^x]*x){100}){100}', 'x'.repeat(2_000)],
  ['((ab?){50}){50}', 'a'.repeat(2_000)],
  ['(?:(?:(?:a*b){20}){20}){20}', 'b'.repeat(2_000)],
  ['(?:(?:b[a-z]?c?d?e?f?g?h?i?j?){100}){100}', 'b'.repeat(2_000)],
];

/**
 * Accepted patterns close to the bound, each with subjects that stack the most turns it allows: the full
 * match, and the longest value, which stacks the same turns and then fails.
 */
const ACCEPTED: readonly (readonly [string, readonly string[]])[] = [
  [
    '(?:(?:a*b){20}){19}',
    ['b'.repeat(380), 'b'.repeat(MAX_LENGTH), `${'a'.repeat(MAX_LENGTH - 380)}${'b'.repeat(380)}`],
  ],
  [
    '(?:(?:[^x]*x){20}){19}',
    ['x'.repeat(380), 'x'.repeat(MAX_LENGTH), `${'y'.repeat(MAX_LENGTH - 380)}${'x'.repeat(380)}`],
  ],
  [
    '(?:[a-z]+\\.){1,100}[a-z]+',
    [`${'a.'.repeat(100)}a`, 'a.'.repeat(MAX_LENGTH / 2), 'a'.repeat(MAX_LENGTH)],
  ],
  ['(?:(?:ab){10}){10}', ['ab'.repeat(100), 'ab'.repeat(MAX_LENGTH / 2)]],
];

describe('nested repetition the guard refuses', () => {
  it.each(REFUSED)(
    'should refuse %s, which overflows Java on 2,000 characters',
    async (pattern, subject) => {
      expect((await java.run(pattern, subject, LIMIT_MILLIS)).outcome).toBe('overflow');
      const verdict = await guard.check(pattern);
      expect(verdict.ok).toBe(false);
      expect(reasonOf(verdict)).toMatch(/^nested repetition ".+" multiplies the turns of repeated groups/);
      expect(reasonOf(verdict)).toContain(`at most ${MAX_JAVA_STACK_UNITS} matcher nodes deep`);
    },
    120_000,
  );
});

describe('patterns the guard accepts', () => {
  it.each(ACCEPTED)(
    'should accept %s, which Java runs without overflow up to the longest value',
    async (pattern, subjects) => {
      expect(javaStackUnits(parseJavaRegex(pattern))).toBeLessThanOrEqual(MAX_JAVA_STACK_UNITS);
      expect(await guard.check(pattern)).toEqual({ ok: true });
      for (const subject of subjects) {
        const { outcome } = await java.run(pattern, subject, LIMIT_MILLIS);
        expect(['match', 'nomatch'], `${pattern} on ${subject.length} characters: ${outcome}`).toContain(
          outcome,
        );
      }
    },
    300_000,
  );

  it('should never accept a nesting that overflows Java, on values up to the longest', async () => {
    // Two or three nested counts around a body that consumes one "b" per turn: every turn the counts allow
    // is stacked on a subject of "b"s.
    const bodies = ['a*b', '[^b]*b', 'b[c-d]*', '(?:c*b)'];
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bodies),
        fc.array(fc.integer({ min: 2, max: 100 }), { minLength: 2, maxLength: 3 }),
        async (body, counts) => {
          const pattern = counts.reduce((inner, count) => `(?:${inner}){${count}}`, body);
          const verdict = await guard.check(pattern);
          const turns = counts.reduce((product, count) => product * count, 1);
          if (!verdict.ok) return;
          accepted += 1;
          for (const length of [turns, MAX_LENGTH]) {
            const { outcome } = await java.run(pattern, 'b'.repeat(length), LIMIT_MILLIS);
            expect(['match', 'nomatch'], `${pattern} on ${length} characters`).toContain(outcome);
          }
        },
      ),
      { numRuns: 24, seed: 19 },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 600_000);
});

describe('through the gateway', () => {
  const h = useHarness({ listen: false });

  it('should answer BAD_USER_INPUT blamed on the caller, and serve another user meanwhile', async () => {
    const attacker = { authorization: `Bearer ${await h.login()}` };
    const victim = { authorization: `Bearer ${await h.login()}` };
    const query = `query Q($p: String!) { objects(objectName: "com.example.LoanType", filter: { criteria: [{ fieldName: "loanType", value: $p }] }) { totalCount } }`;
    const [refused, served] = await Promise.all([
      h.post(query, { p: '(?:(?:a*b){100}){100}' }, attacker),
      h.post(LOAN_TYPES, {}, victim),
    ]);
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      blame: 'caller',
      argumentName: 'filter',
    });
    expect(refused.errors?.[0]?.message).toMatch(/is refused: nested repetition/);
    expect(served.errors).toBeUndefined();
    expect(h.totalUpstreamCalls()).toBeGreaterThan(0);
  });
});
