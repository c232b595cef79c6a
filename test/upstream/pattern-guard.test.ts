import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PatternVerdict } from '../../src/upstream/pattern-guard/pattern-guard.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import type { Analyser, Analysis } from '../../src/upstream/pattern-guard/redos-analyser.ts';
import { alternationOf, escapeJavaRegex } from '../../src/upstream/pattern-guard/regex-escape.ts';

/** An analyser that records its calls and answers `answer` (or waits for `release`). */
function fakeAnalyser(answer: Analysis = { status: 'safe' }) {
  const calls: string[] = [];
  let running = 0;
  let mostRunning = 0;
  const releases: (() => void)[] = [];
  const analyser: Analyser = async (source, _flags, _timeout, signal) => {
    calls.push(source);
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    try {
      if (hold) {
        await new Promise<void>((resolve) => {
          releases.push(resolve);
          signal.addEventListener('abort', () => {
            resolve();
          });
        });
      }
      return answer;
    } finally {
      running -= 1;
    }
  };
  let hold = false;
  return {
    analyser,
    calls,
    mostRunning: () => mostRunning,
    holdAnswers() {
      hold = true;
    },
    releaseAll() {
      hold = false;
      releases.splice(0).forEach((release) => {
        release();
      });
    },
  };
}

const reasonOf = (verdict: PatternVerdict): string => (verdict.ok ? '' : verdict.reason);

const ORDINARY = ['A.*', 'PAID|SHIPPED', '[0-9]{4}-.*', 'Home.*', '.*loan', '[A-Z][a-z]+', '\\d{3}-\\d{4}'];
const literal = escapeJavaRegex('Home loan (fixed) #1 – 50% off');
const GATEWAY_SHAPES = [
  literal,
  `${literal}.*`,
  `.*${literal}`,
  '[Hh][Oo][Mm][Ee] [Ll][Oo][Aa][Nn].*',
  escapeJavaRegex('😀 \ud800 tab\there'),
];
const ids = Array.from({ length: 200 }, (_, index) => `5f0c3e9b1a2d${String(index).padStart(12, '0')}`);

describe('createPatternGuard', () => {
  it.each(ORDINARY)('should accept the ordinary pattern %j', async (pattern) => {
    expect(await defaultPatternGuard().check(pattern)).toEqual({ ok: true });
  });

  it.each(GATEWAY_SHAPES)(
    'should accept the gateway-built %j without running the checker',
    async (pattern) => {
      const fake = fakeAnalyser({ status: 'unknown', error: 'never called' });
      expect(await defaultPatternGuard({ analyser: fake.analyser }).check(pattern)).toEqual({ ok: true });
      expect(fake.calls).toEqual([]);
    },
  );

  it('should accept an escaped alternation of 200 ids, past the length cap, without running the checker', async () => {
    const pattern = alternationOf(ids.map((id) => `${id}-x`));
    expect(pattern.length).toBeGreaterThan(4_000);
    const fake = fakeAnalyser();
    expect(await defaultPatternGuard({ analyser: fake.analyser }).check(pattern)).toEqual({ ok: true });
    expect(fake.calls).toEqual([]);
  });

  it('should refuse a pattern longer than maxLength without quoting it', async () => {
    const guard = defaultPatternGuard({ maxLength: 20 });
    expect(await guard.check('a'.repeat(20))).toEqual({ ok: true });
    const verdict = await guard.check(`${'b'.repeat(20)}.*`);
    expect(reasonOf(verdict)).toMatch(/22 characters long, more than the 20 accepted/);
    expect(reasonOf(verdict)).not.toContain('bbb');
    expect(await defaultPatternGuard().check('a'.repeat(513))).toMatchObject({ ok: false });
  });

  it.each([
    ['(a+)+$', 'repeated group "(a+)+"', 'single characters'],
    ['(a|aa)*b', 'repeated group "(a|aa)*"', '[ab]* for (a|b)*'],
    ['(a|b){101}', 'repeated group "(a|b){101}"', 'at most 100 turns'],
    ['.*loan.*', '".*loan.*" takes time quadratic', 'contains operator'],
    ['a*a*a*b', 'repetitions "a*a*a*"', 'polynomial time (degree 3)'],
    ['.*.*.*z', 'repetitions ".*.*.*"', 'polynomial time (degree 3)'],
    ['((a|a)(a|a)){15}b', 'alternatives and counts in "((a|a)(a|a)){15}b" multiply', 'one by one'],
    ['(a++)+b', 'possessive quantifier "a++"', 'use a plain quantifier'],
    ['(?>a+)b', 'atomic group "(?>"', 'plain group'],
    ['(?i)home', 'inline flag "(?i)"', '[Hh][Oo][Mm][Ee]'],
    ['(a)\\1', 'back-reference "\\1"', 'remove'],
    ['(?=x)x', 'lookaround "(?="', 'match the text'],
    ['\\Qa.b\\E', '\\Q…\\E quoting "\\Q"', 'backslash'],
    ['[a-z&&[^e]]', 'class intersection "&&"', 'single class'],
    ['[ab[cd]]', 'nested class "["', 'single class'],
    ['\\p{InGreek}', 'character property "\\p{InGreek}"', 'POSIX class'],
    ['a{2', 'not a valid Java regular expression: malformed count', 'fix'],
    // Java's own refusal ("Named capturing group <n> is already defined"), found against a JVM.
    ['(?<n>a)(?<n>b)', 'not a valid Java regular expression: group name defined twice', 'fix'],
  ])('should refuse %j, naming the construct', async (pattern, named, advice) => {
    const reason = reasonOf(await defaultPatternGuard().check(pattern));
    expect(reason).toContain(named);
    expect(reason).toContain(advice);
  });

  it('should tell the caller what to use instead of a slow pattern', async () => {
    expect(reasonOf(await defaultPatternGuard().check('(a|b)*'))).toBe(
      'the repeated group "(a|b)*" can overflow the upstream regex engine\'s stack on long values (Java ' +
        'repeats a group recursively); repeat single characters or classes instead ([ab]* for (a|b)*), bound ' +
        'the group to at most 100 turns, or use the contains/startsWith/equals operators or a simpler pattern',
    );
  });

  it('should accept polynomial backtracking up to maxPolynomialDegree only', async () => {
    const fake = fakeAnalyser({
      status: 'vulnerable',
      complexity: 'polynomial',
      degree: 2,
      hotspots: [],
      attack: '',
    });
    expect(await defaultPatternGuard({ analyser: fake.analyser }).check('\\s*x?\\s*')).toMatchObject({
      ok: false,
    });
    const lenient = defaultPatternGuard({ analyser: fake.analyser, maxPolynomialDegree: 2 });
    expect(await lenient.check('\\s*x?\\s*')).toEqual({ ok: true });
  });

  it('should remember a verdict, and share one analysis between concurrent checks of a pattern', async () => {
    const fake = fakeAnalyser();
    const guard = defaultPatternGuard({ analyser: fake.analyser });
    const verdicts = await Promise.all([guard.check('[a-z]+x'), guard.check('[a-z]+x')]);
    expect(verdicts).toEqual([{ ok: true }, { ok: true }]);
    expect(await guard.check('[a-z]+x')).toEqual({ ok: true });
    expect(fake.calls).toHaveLength(1);
  });

  it('should forget the least recently used verdict past cacheMaxEntries', async () => {
    const fake = fakeAnalyser();
    const guard = defaultPatternGuard({ analyser: fake.analyser, cacheMaxEntries: 2 });
    for (const pattern of ['a+b', 'c+d', 'a+b', 'e+f', 'a+b', 'c+d']) await guard.check(pattern);
    // a+b stayed hot; c+d was evicted by e+f and analysed again.
    expect(fake.calls.filter((source) => source.includes('a'))).toHaveLength(1);
    expect(fake.calls.filter((source) => source.includes('c'))).toHaveLength(2);
  });

  it('should run at most maxConcurrentChecks analyses and refuse at once past maxQueuedChecks', async () => {
    const fake = fakeAnalyser();
    fake.holdAnswers();
    const guard = defaultPatternGuard({
      analyser: fake.analyser,
      maxConcurrentChecks: 2,
      maxQueuedChecks: 1,
    });
    // Three callers, one new pattern each: two run, one waits, and a fourth finds no room.
    const pending = ['a+b', 'c+d', 'e+f'].map((pattern, i) => guard.check(pattern, `user${i}`));
    expect(reasonOf(await guard.check('g+h', 'user3'))).toMatch(
      /too many new patterns at once; retry shortly/,
    );
    fake.releaseAll();
    await new Promise((resolve) => setTimeout(resolve, 10));
    fake.releaseAll();
    expect(await Promise.all(pending)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(fake.mostRunning()).toBe(2);
    // A busy refusal is not remembered.
    expect(await guard.check('g+h', 'user3')).toEqual({ ok: true });
  });

  it('should answer busy (refused, not kept) when the analysis passes the wall-clock backstop', async () => {
    const fake = fakeAnalyser();
    fake.holdAnswers();
    const guard = defaultPatternGuard({ analyser: fake.analyser, analysisTimeoutMillis: 50 });
    // The analysis never answers: only the backstop can end the check.
    const verdict = await guard.check('x+y');
    expect(verdict).toMatchObject({ ok: false, busy: true });
  });

  it('should answer busy, not refuse, when the real checker passes the wall-clock backstop', async () => {
    // A hard pattern takes the checker seconds; a loaded machine made the backstop cut it in production.
    const hard = `${Array.from({ length: 12 }, (_, index) => `[a-${String.fromCharCode(100 + index)}]*`).join('')}$`;
    const guard = defaultPatternGuard({ analysisTimeoutMillis: 30 });
    expect(await guard.check(hard)).toMatchObject({ ok: false, busy: true });
    expect(reasonOf(await guard.check(hard))).not.toMatch(/could not check/);
  });

  it.each<[string, Analyser]>([
    ['throws', () => Promise.reject(new Error('agent died'))],
    ['gives up', () => Promise.resolve({ status: 'unknown', error: 'unexpected' })],
  ])('should refuse (fail closed) when the checker %s', async (_label, analyser) => {
    const verdict = await defaultPatternGuard({ analyser }).check('x+y');
    expect(reasonOf(verdict)).toMatch(/could not (check|be checked)/);
    expect(reasonOf(verdict)).not.toContain('agent died');
  });

  it('should keep the event loop free while recheck analyses a hard pattern', async () => {
    // The wall-clock backstop (10 s by default) out of the way: on a loaded machine the analysis may pass it.
    const guard = defaultPatternGuard({ analysisTimeoutMillis: 240_000 });
    await guard.check('[a-z]+@warm-up'); // starts the checker's worker
    // Counts the turns of the event loop while the check runs: run on our thread, the analysis would hold
    // the loop for its whole length (a turn or two at most); off it, the loop turns freely meanwhile. Turns,
    // not milliseconds: a loaded machine delays both alike.
    let turns = 0;
    let checking = true;
    const turn = (): void => {
      turns++;
      if (checking) setImmediate(turn);
    };
    setImmediate(turn);
    // recheck needs a while for this one: run on our thread, it would stall every other request.
    const hard = `${Array.from({ length: 12 }, (_, index) => `[a-${String.fromCharCode(100 + index)}]*`).join('')}$`;
    const verdict = await guard.check(hard);
    checking = false;
    expect(reasonOf(verdict)).toMatch(/polynomial/);
    expect(turns).toBeGreaterThan(10);
  });
});

describe('createPatternGuard on untrusted input', () => {
  const regexLike = fc.string({
    unit: fc.constantFrom(
      ...'ab.|()*+?[]{}^$\\-&0123,:=!<>PQEkpxuwsdbR'.split(''),
      '{2,5}',
      '(?',
      '\\p{',
      '😀',
    ),
    maxLength: 40,
  });

  it('should answer every string with a verdict and quote at most 60 characters of it', async () => {
    const fake = fakeAnalyser({
      status: 'vulnerable',
      complexity: 'exponential',
      hotspots: [{ start: 0, end: 10_000 }],
      attack: '',
    });
    const guard = defaultPatternGuard({ analyser: fake.analyser, cacheMaxEntries: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 700 }), regexLike),
        async (pattern) => {
          const verdict = await guard.check(pattern);
          expect(typeof verdict.ok).toBe('boolean');
          const reason = reasonOf(verdict);
          for (let start = 0; start + 61 <= pattern.length; start += 1) {
            expect(reason).not.toContain(pattern.slice(start, start + 61));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('should answer arbitrary regex-like strings with recheck itself, never throwing', async () => {
    const guard = defaultPatternGuard({ analysisTimeoutMillis: 3_000 });
    await fc.assert(
      fc.asyncProperty(regexLike, async (pattern) => {
        const verdict = await guard.check(pattern);
        expect(verdict.ok || reasonOf(verdict).length > 0).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
