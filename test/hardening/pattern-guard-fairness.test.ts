/**
 * The pattern checker is no longer one queue for everybody. One account loops on 24 distinct patterns that
 * each take about 2 s to analyse (the ReDoS checker is stood in by an analyser that takes that long for
 * them: how long recheck takes depends on the machine); before, another account's new ordinary pattern
 * then answered `TOO_MANY_REQUESTS / pattern_guard_busy` on 99 of 101 tries and its reads slowed. Now each
 * user holds one analysis at a time and waits in a queue of its own, and callers take turns: the flood
 * costs only the flooding account (its own extra patterns answer `pattern_guard_busy`), the other
 * account's new pattern is analysed and its reads are served, and a pattern already judged is answered
 * from the verdict cache without queueing. Outcomes are asserted, not timings.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type PatternGuard, type PatternVerdict } from '../../src/upstream/pattern-guard/pattern-guard.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import type { Analyser } from '../../src/upstream/pattern-guard/redos-analyser.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES, LOGIN, type GraphqlAnswer } from '../support/post-graphql.ts';

/** Just under the guard's 2 s limit per analysis. */
const SLOW_MILLIS = 1_800;

/** An analyser that takes `slowMillis` for sources holding "slow", and answers the rest at once. */
function slowForFloods(slowMillis = SLOW_MILLIS) {
  const analysed: string[] = [];
  const analyser: Analyser = async (source, _flags, _timeout, signal) => {
    analysed.push(source);
    if (source.includes('slow')) await sleep(slowMillis, undefined, { signal }).catch(() => undefined);
    return { status: 'safe' };
  };
  return { analyser, analysed };
}

/** An analyser that holds every analysis until released (or aborted), answering "safe". */
function heldAnalyser() {
  const releases: (() => void)[] = [];
  const analyser: Analyser = (_source, _flags, _timeout, signal) =>
    new Promise((resolve) => {
      const release = () => {
        resolve({ status: 'safe' });
      };
      releases.push(release);
      signal.addEventListener('abort', release);
    });
  return {
    analyser,
    releaseAll: () => {
      releases.splice(0).forEach((release) => {
        release();
      });
    },
    /** How many analyses are held. */
    pending: () => releases.length,
  };
}

const FILTERED = `query F($p: String!) { objects(objectName: "com.example.LoanType", filter: { criteria: [{ fieldName: "loanType", value: $p }] }) { totalCount } }`;
const codeOf = (answer: GraphqlAnswer) => answer.errors?.[0]?.extensions;

describe('through the gateway', () => {
  const h = useHarness({ listen: false });

  async function login(username: string): Promise<Record<string, string>> {
    const answer = await h.post(LOGIN, { username, password: `${username}-password` });
    const token = (answer.data?.login as { token?: string } | undefined)?.token;
    if (token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
    return { authorization: `Bearer ${token}` };
  }

  it('should let one account flood only itself: another account’s new pattern is analysed and its reads served', async () => {
    const fake = slowForFloods();
    h.gateway.services.patternGuard = defaultPatternGuard({ analyser: fake.analyser });
    const attacker = await login('admin');
    const victim = await login('demo');
    // A pattern the victim had judged before the flood.
    expect(codeOf(await h.post(FILTERED, { p: 'known[a-z]+' }, victim))).toBeUndefined();

    // The flood: 24 distinct slow patterns at once, then again while the first ones are analysed.
    const flood = (round: number) =>
      Array.from({ length: 24 }, (_unused, i) =>
        h.post(FILTERED, { p: `slow${round}x${i}[a-z]+` }, attacker),
      );
    const first = flood(0);
    await sleep(200);
    const second = flood(1);
    await sleep(200);

    // Meanwhile the victim: a new ordinary pattern, the judged one again, and plain reads.
    const analysedBefore = fake.analysed.length;
    const [fresh, known, ...reads] = await Promise.all([
      h.post(FILTERED, { p: '[a-z]+ loan' }, victim),
      h.post(FILTERED, { p: 'known[a-z]+' }, victim),
      ...Array.from({ length: 5 }, () => h.post(LOAN_TYPES, {}, victim)),
    ]);
    for (const answer of [fresh, known, ...reads]) {
      expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
      expect(answer.data?.objects).toMatchObject({ totalCount: expect.any(Number) as number });
    }
    // The judged pattern came from the cache: only the new one was analysed for the victim.
    expect(fake.analysed.slice(analysedBefore).filter((source) => source.includes('known'))).toEqual([]);

    // The attacker's own answer: the patterns its share reaches are analysed (accepted, or refused as not
    // checked in time should the machine be slow), the rest are busy.
    const attacks = await Promise.all([...first, ...second]);
    const busy = attacks.filter((answer) => codeOf(answer)?.reason === 'pattern_guard_busy');
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(codeOf(answer)).toMatchObject({ code: 'TOO_MANY_REQUESTS', blame: 'gateway', retryAfter: 1 });
    }
    for (const answer of attacks.filter((a) => !busy.includes(a))) {
      if (answer.errors === undefined) continue;
      expect(codeOf(answer)).toMatchObject({ code: 'BAD_USER_INPUT', blame: 'caller' });
      expect(answer.errors[0]?.message).toMatch(/could not be checked within 2000 ms/);
    }
    // The process lives and still serves the victim.
    expect((await h.post(LOAN_TYPES, {}, victim)).errors).toBeUndefined();
  });
});

describe('the guard’s shares', () => {
  it('should give anonymous callers together the smallest share', async () => {
    const held = heldAnalyser();
    const guard = defaultPatternGuard({ analyser: held.analyser, analysisTimeoutMillis: 30_000 });
    const running = guard.check('anon1[a-z]+');
    const waiting = guard.check('anon2[a-z]+');
    // A third anonymous pattern finds the anonymous share taken and its one place in line filled...
    expect(await guard.check('anon3[a-z]+')).toMatchObject({ ok: false, busy: true });
    // ...while a user's new pattern still runs on the other slot.
    const user = guard.check('user1[a-z]+', 'app\u0000someone');
    await sleep(10);
    held.releaseAll();
    await sleep(10);
    held.releaseAll();
    expect(await Promise.all([running, waiting, user])).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it('should bound each user’s line and take turns between users', async () => {
    const held = heldAnalyser();
    const guard = defaultPatternGuard({ analyser: held.analyser, analysisTimeoutMillis: 30_000 });
    // One user: one running and four waiting; the sixth is its own busy answer.
    const flood = Array.from({ length: 5 }, (_unused, i) => guard.check(`flood${i}[a-z]+`, 'flooder'));
    expect(await guard.check('flood5[a-z]+', 'flooder')).toMatchObject({ ok: false, busy: true });
    // Another user is served on the second slot at once, without waiting for the flood.
    const other = guard.check('other[a-z]+', 'other');
    await sleep(10);
    held.releaseAll();
    expect(await other).toEqual({ ok: true });
    for (let i = 0; i < 5; i++) {
      await sleep(10);
      held.releaseAll();
    }
    expect(await Promise.all(flood)).toEqual(Array.from({ length: 5 }, () => ({ ok: true })));
  });
});

describe('several flooding accounts', () => {
  /** Under the 2 s wait per round these tests set, with room for a loaded machine either way. */
  const FLOOD_MILLIS = 1_500;
  const WAIT_MILLIS = 2_000;

  /** Each account fills its share: one analysis running (or waiting for a slot) and its line of four. */
  const floodFrom = (guard: PatternGuard, accounts: number) =>
    Array.from({ length: accounts }, (_unused, account) =>
      Array.from({ length: 5 }, (_unused2, i) =>
        guard.check(`slow${account}x${i}[a-z]+`, `flooder${account}`),
      ),
    ).flat();

  it.each([2, 4])(
    'should analyse another account’s new pattern while %i accounts flood the checker',
    async (accounts) => {
      const fake = slowForFloods(FLOOD_MILLIS);
      const guard = defaultPatternGuard({ analyser: fake.analyser, analysisTimeoutMillis: WAIT_MILLIS });
      const flood = floodFrom(guard, accounts);
      await sleep(100);
      // Before: with two accounts it joined the turns behind both and its wait ran out (busy); with four
      // the sixteen places were all taken (busy at once).
      expect(await guard.check('victim[a-z]+ loan', 'victim')).toEqual({ ok: true });
      expect(fake.analysed.filter((source) => source.includes('victim'))).toHaveLength(1);
      // The flood costs the flooding accounts: some of their own patterns are busy.
      const verdicts = await Promise.all(flood);
      expect(verdicts.filter((verdict) => !verdict.ok && verdict.busy === true).length).toBeGreaterThan(0);
    },
    30_000,
  );

  it('should serve a caller with nothing served yet before the callers already taking turns', async () => {
    const sources: string[] = [];
    const releases: (() => void)[] = [];
    const analyser: Analyser = (source) =>
      new Promise((resolve) => {
        sources.push(source);
        releases.push(() => {
          resolve({ status: 'safe' });
        });
      });
    const guard = defaultPatternGuard({ analyser, analysisTimeoutMillis: 30_000 });
    const flood = floodFrom(guard, 2);
    const victim = guard.check('victim[a-z]+', 'victim');
    await sleep(10);
    expect(sources.filter((source) => source.includes('victim'))).toEqual([]);
    // The first slot freed goes to the caller that arrived, not back to a flooding account.
    releases.shift()?.();
    await sleep(10);
    expect(sources.filter((source) => source.includes('victim'))).toHaveLength(1);
    for (let round = 0; round < 50 && releases.length > 0; round++) {
      releases.splice(0).forEach((release) => {
        release();
      });
      await sleep(10);
    }
    expect(await victim).toEqual({ ok: true });
    expect(await Promise.all(flood)).toEqual(Array.from({ length: 10 }, () => ({ ok: true })));
  });

  it('should give a caller holding nothing a place in a full queue, refusing the largest holder’s newest', async () => {
    const held = heldAnalyser();
    const guard = defaultPatternGuard({ analyser: held.analyser, analysisTimeoutMillis: 30_000 });
    // Four accounts: two running, sixteen waiting (four each), the total line full; the fifth pattern of
    // the two accounts that found no free slot is their own busy answer.
    const flood = floodFrom(guard, 4);
    const settled: PatternVerdict[] = [];
    for (const check of flood) void check.then((verdict) => settled.push(verdict));
    const victim = guard.check('victim[a-z]+', 'victim');
    let victimSettled = false;
    void victim.then(() => (victimSettled = true));
    await sleep(20);
    // The victim's pattern waits; the place it took was the newest of an account holding four.
    expect(victimSettled).toBe(false);
    const busy = { ok: false, reason: expect.any(String) as string, busy: true };
    expect(settled).toEqual([busy, busy, busy]);
    for (let round = 0; round < 50 && held.pending() > 0; round++) {
      held.releaseAll();
      await sleep(10);
    }
    expect(await victim).toEqual({ ok: true });
    const verdicts = await Promise.all(flood);
    expect(verdicts.filter((verdict) => !verdict.ok && verdict.busy === true)).toHaveLength(3);
  });
});
