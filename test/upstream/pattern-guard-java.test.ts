/**
 * The pattern guard against a real JVM: every pattern java.util.regex cannot finish within
 * {@link LIMIT_MILLIS} on an attack string (recheck's, or one crafted for the family) must be refused, and
 * the ordinary patterns (callers' and the gateway's own) must be accepted and stay fast in Java on long,
 * hostile-looking subjects. Installs Debian's JDK when `java` is missing (CI machines start bare).
 */
import { describe, expect, it } from 'vitest';
import { check } from 'recheck';
import { parseJavaRegex } from '../../src/upstream/pattern-guard/java-regex-parser.ts';
import { type PatternVerdict } from '../../src/upstream/pattern-guard/pattern-guard.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { alternationOf, escapeJavaRegex } from '../../src/upstream/pattern-guard/regex-escape.ts';
import { toCheckerSource } from '../../src/upstream/pattern-guard/regex-shape.ts';
import { useJavaRegexTimer } from '../support/java/java-regex-timer.ts';

const reasonOf = (verdict: PatternVerdict): string => (verdict.ok ? '' : verdict.reason);

/** What a pattern may cost one upstream thread, in milliseconds. */
const LIMIT_MILLIS = 100;
/**
 * Length of the subjects (field values) sent to Java, attack strings included: recheck's polynomial attacks
 * can be 300,000 characters; `.*lit.*` is already slow at 25,000 (see the last test).
 */
const SUBJECT_LENGTH = 5_000;
const MAX_ATTACK_LENGTH = SUBJECT_LENGTH;

const a = (count: number) => 'a'.repeat(count);

/** Hostile patterns, each with an attack string crafted for its family. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['(a+)+$', `${a(30)}!`],
  ['(a+)+b', a(30)],
  ['(a|aa)*b', a(40)],
  ['(a|a)*b', a(30)],
  ['(a*)*b', a(30)],
  ['(x+x+)+y', 'x'.repeat(30)],
  ['([a-z]+)*$', `${a(30)}!`],
  ['(\\d+)*x', '1'.repeat(30)],
  ['(a|b|ab)*c', 'ab'.repeat(25)],
  ['(\\w+\\s?)*$', `${'a'.repeat(30)}!`],
  ['(\\w+\\s*)+$', `${'ab '.repeat(15)}!`],
  ['(\\w|\\d)+$', `${'1'.repeat(30)}!`],
  ['^([a-zA-Z0-9_.+-]+)+@[a-z]+\\.com$', `${a(30)}!`],
  ['^(([a-z])+.)+[A-Z]([a-z])+$', `${a(30)}!`],
  [
    '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
    `${a(30)}!`,
  ],
  ['(?:\\d+|\\d+\\.\\d+)*x', '1'.repeat(30)],
  ['.*.*.*.*.*.*.*.*z', a(2_000)],
  ['.*.*.*z', a(3_000)],
  ['.*.*', `${a(SUBJECT_LENGTH)}\n`],
  ['a*a*a*b', a(3_000)],
  ['\\d*\\d*\\d*\\d*x', '1'.repeat(3_000)],
  ['(.*a){12}', `${a(200)}b`],
  ['(.*,){11}P', 'a,'.repeat(1_000)],
  ['.*a.*a.*a.*x', a(2_000)],
  ['\\s*#?\\s*$', `${' '.repeat(SUBJECT_LENGTH)}x`],
  ['[ \\t]*[ \\t]*x', ' '.repeat(SUBJECT_LENGTH)],
  [
    '(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)b',
    a(20),
  ],
  ['((a|a)(a|a)){15}b', a(30)],
  ['(a|a){13}.*x', `${a(13)}${'y'.repeat(SUBJECT_LENGTH)}\n`],
  ['(a?){30}a{30}', a(30)],
  // These pin Java 17 too: its memo covers only `*` and `+` loops nested once.
  ['(a|aa){1,100}b', a(40)],
  ['(a+){2,100}b', a(40)],
  ['(?:a|a){0,60}b', a(40)],
  ['((a+)+)+b', a(40)],
  ['(.*?,){11}P', 'a,'.repeat(30)],
  ['(\\w+\\s?){1,50}$', `${'ab'.repeat(20)}!`],
];

/** Java constructs the guard refuses by name, each with the name its reason must carry. */
const REFUSED_CONSTRUCTS: readonly (readonly [string, string])[] = [
  ['(a++)+b', 'possessive quantifier'],
  ['(?>a+)+b', 'atomic group'],
  ['(?i)(a+)+b', 'inline flag'],
  ['(?i:home)', 'inline flag'],
  ['(a)\\1*b', 'back-reference'],
  ['(?<x>a)\\k<x>', 'named back-reference'],
  ['(?=a)(a+)+b', 'lookaround'],
  ['(?<!x)a+', 'lookaround'],
  ['\\Q(a+)+\\E', '\\Q…\\E quoting'],
  ['[a-z&&[^e]]+', 'class intersection'],
  ['[a[bc]]+', 'nested class'],
  ['\\p{IsLatin}+', 'character property'],
  ['\\R+', 'line-break matcher'],
];

const ids = Array.from({ length: 200 }, (_, index) => `5f0c3e9b1a2d${String(index).padStart(12, '0')}`);
const literal = escapeJavaRegex('Home loan (fixed) #1');

/** Ordinary patterns, each with a long subject shaped to make it backtrack as much as it can. */
const ORDINARY: readonly (readonly [string, string])[] = [
  ['A.*', `A${a(SUBJECT_LENGTH)}\n`],
  ['PAID|SHIPPED', 'PAI'.repeat(SUBJECT_LENGTH / 3)],
  ['[0-9]{4}-.*', `1234${'-'.repeat(SUBJECT_LENGTH)}\n`],
  ['Home.*', `${'Home'.repeat(SUBJECT_LENGTH / 4)}\n`],
  ['[A-Z][a-z]+', `A${a(SUBJECT_LENGTH)}1`],
  ['\\d{3}-\\d{4}', `123-${'1'.repeat(SUBJECT_LENGTH)}`],
  ['[Hh][Oo][Mm][Ee] [Ll][Oo][Aa][Nn].*', `${'home loan'.repeat(SUBJECT_LENGTH / 9)}\n`],
  ['\\p{Alpha}+\\d*', `${a(SUBJECT_LENGTH)}!`],
  ['(?<year>\\d{4})-\\d\\d', `1234-${'1'.repeat(SUBJECT_LENGTH)}`],
  ['[^,]*,[^,]*', `${a(SUBJECT_LENGTH)}\n`],
  [literal, 'Home loan (fixed) #'.repeat(SUBJECT_LENGTH / 19)],
  [alternationOf(ids), `5f0c3e9b1a2d${'0'.repeat(SUBJECT_LENGTH)}`],
  [`.*${literal}`, `${'Home loan (fixed) #1'.repeat(SUBJECT_LENGTH / 20)}\n`],
  [`${literal}.*`, `Home loan (fixed) #1${'x'.repeat(SUBJECT_LENGTH)}\n`],
  [`.*${literal}`, 'Home loan (fixed) #'.repeat(SUBJECT_LENGTH / 19)],
];

/** recheck's attack string for `pattern`, read as Java reads it, when the checker finds one. */
async function recheckAttack(pattern: string): Promise<string | undefined> {
  let source: string;
  try {
    source = toCheckerSource(parseJavaRegex(pattern)).source;
  } catch {
    return undefined;
  }
  const diagnostics = await check(source, 'u', { timeout: 5_000 });
  if (diagnostics.status !== 'vulnerable') return undefined;
  const { pumps, suffix, string } = diagnostics.attack;
  if (string.length <= MAX_ATTACK_LENGTH) return string;
  // Too long for the test's time: the same pumps, repeated fewer times.
  const pumped = pumps.reduce((sum, pump) => sum + pump.pump.length, 0);
  const times = Math.floor(MAX_ATTACK_LENGTH / Math.max(1, pumped));
  return pumps.map((pump) => pump.prefix + pump.pump.repeat(times)).join('') + suffix;
}

/** Java's best of `tries` runs (a busy machine may stall one run). */
async function fastestRun(pattern: string, subject: string, tries = 3) {
  let best = await java.run(pattern, subject, LIMIT_MILLIS);
  for (let i = 1; i < tries && best.outcome === 'timeout'; i++)
    best = await java.run(pattern, subject, LIMIT_MILLIS);
  return best;
}

const java = useJavaRegexTimer();
const guard = defaultPatternGuard();

describe('the pattern guard against java.util.regex', () => {
  it('should refuse every pattern Java cannot finish in 100 ms on an attack string', async () => {
    const slowInJava: string[] = [];
    for (const [pattern, crafted] of [...HOSTILE, ...ORDINARY]) {
      const attacks = [crafted, await recheckAttack(pattern)].filter((s): s is string => s !== undefined);
      for (const attack of attacks) {
        const { outcome } = await fastestRun(pattern, attack);
        if (outcome !== 'timeout') continue;
        slowInJava.push(pattern);
        const verdict = await guard.check(pattern);
        expect(verdict, `${pattern} pins Java for more than ${LIMIT_MILLIS} ms`).toMatchObject({ ok: false });
      }
    }
    // The harness must really pin Java. Java 9+ memoizes greedy `*`/`+` loops, so (a+)+b or (a|a)*b finish
    // at once on Java 17 (not on the Java 8 a legacy upstream may run), but bounded counts, double nesting
    // and polynomial families still do.
    expect(new Set(slowInJava).size).toBeGreaterThanOrEqual(15);
  });

  it.each(HOSTILE)('should refuse %j, naming the construct', async (pattern) => {
    const verdict = await guard.check(pattern);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok)
      expect(verdict.reason).toMatch(
        /repeated group|nested quantifier|alternatives|repetition|polynomial|exponential/,
      );
  });

  it.each(REFUSED_CONSTRUCTS)(
    'should refuse %j as a %s, a construct Java reads its own way',
    async (pattern, name) => {
      const verdict = await guard.check(pattern);
      expect(verdict).toMatchObject({ ok: false });
      if (!verdict.ok) expect(verdict.reason).toContain(name);
      // These are valid Java: the refusal is the guard's, not a syntax error.
      expect((await java.run(pattern, 'a', LIMIT_MILLIS)).outcome).not.toBe('invalid');
    },
  );

  it.each(ORDINARY.map(([pattern, subject]) => [pattern.slice(0, 60), pattern, subject] as const))(
    'should accept %j, which stays fast in Java on a long hostile-looking subject',
    async (_label, pattern, subject) => {
      expect(await guard.check(pattern)).toEqual({ ok: true });
      const { outcome } = await fastestRun(pattern, subject);
      expect(['match', 'nomatch']).toContain(outcome);
    },
  );

  it('should refuse .*lit.*, quadratic on long values with many lit and a line terminator', async () => {
    // `.` does not match a line terminator, so on such a value the trailing `.*` fails at every occurrence and
    // the leading one backtracks: O(n²), more than 100 ms at 100,000 characters. `contains` is linear.
    expect((await java.run('.*loan.*', `${'loan'.repeat(25_000)}\n`, LIMIT_MILLIS)).outcome).toBe('timeout');
    expect(reasonOf(await guard.check('.*loan.*'))).toMatch(/quadratic.*contains/);
  });

  it.each([
    ['(a|b)*', 'ab'.repeat(2_500)],
    ['\\w+(?:\\.\\w+)*', `${'a.'.repeat(4_000)}a`],
  ])('should refuse the group loop %j, on which Java overflows its stack', async (pattern, subject) => {
    expect((await java.run(pattern, subject, LIMIT_MILLIS)).outcome).toBe('overflow');
    expect(reasonOf(await guard.check(pattern))).toMatch(/repeated group.*stack/);
  });

  it.each(['a{', '(a', 'a)', '*a', 'a**', '[a', '\\', 'a{2,1}', '\\y', '(?<1a>x)'])(
    'should refuse %j, which Java rejects too, as invalid',
    async (pattern) => {
      expect((await java.run(pattern, 'a', LIMIT_MILLIS)).outcome).toBe('invalid');
      const verdict = await guard.check(pattern);
      expect(verdict).toMatchObject({
        ok: false,
        reason: expect.stringContaining('not a valid Java regular expression'),
      });
    },
  );
});
