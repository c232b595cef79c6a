/**
 * The pattern checker's helper, bounded. Before: recheck's native agent, a child process started on the
 * first caller's pattern (that request stalled about 2.7 s and was refused), grew to 642 MiB under one
 * account's flood of distinct hard patterns (400 MiB measured here for 16 of them) beside the gateway, gave
 * another verdict when the machine was busy (a wall-clock limit), and concurrent first calls each started an
 * agent that stayed. Now: one worker thread, warmed up before the gateway listens, its live heap capped,
 * its verdicts decided by a budget of steps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRecheckAnalyser,
  type RecheckAnalyser,
} from '../../src/upstream/pattern-guard/redos-analyser.ts';
import type { PatternVerdict } from '../../src/upstream/pattern-guard/pattern-guard.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOGIN } from '../support/post-graphql.ts';
import { childGroupOptions, recordChild } from '../../support/child-registry.ts';

/** This process's resident set, in MiB. */
function rssMiB(): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** Processes whose parent is this one (recheck's agent was one). */
function childProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(process.pid);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Patterns the checker cannot finish: a reverse automaton that blows up, a long fuzzing; `tail` a letter. */
const blowsUp = (tail: string) => `x[a-h]*[^a][^b][^c][^d][^e][^f][^g][^h][^a][^b][^c][^d][^e][a-z]*${tail}`;
const fuzzesLong = (tail: string) => `[a-h]*[^a][^b][^c][^d][^e][^f][^g][^h][^a][^b][^c][^d][^e]${tail}*y`;
/** Polynomial of degree 13: refused with the construct named. */
const POLYNOMIAL = `${Array.from({ length: 12 }, (_, index) => `[a-${String.fromCharCode(100 + index)}]*`).join('')}$`;

const reasonOf = (verdict: PatternVerdict) => (verdict.ok ? 'accepted' : verdict.reason);

describe('the pattern checker’s helper', () => {
  const checkers: RecheckAnalyser[] = [];
  const burners: ChildProcess[] = [];
  const newChecker = () => {
    const checker = createRecheckAnalyser();
    checkers.push(checker);
    return checker;
  };
  afterEach(async () => {
    for (const burner of burners.splice(0)) burner.kill('SIGKILL');
    await Promise.all(checkers.splice(0).map((checker) => checker.close()));
  });

  it('should stay one worker thread, no child process, within its heap cap during a flood of distinct hard patterns', async () => {
    const checker = newChecker();
    await checker.warmUp();
    const guard = defaultPatternGuard({ analyser: checker.analyse });
    const idle = rssMiB();
    let peak = idle;
    let mostThreads = checker.threads();
    let mostChildren = childProcesses().length;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB());
      mostThreads = Math.max(mostThreads, checker.threads());
      mostChildren = Math.max(mostChildren, childProcesses().length);
    }, 25);
    const flood = ['i', 'j', 'k'].flatMap((tail) => [blowsUp(tail), fuzzesLong(tail)]);
    const verdicts = await Promise.all(flood.map((pattern) => guard.check(pattern, 'flooder')));
    clearInterval(sampler);
    // Measured: +71 MiB over a warm gateway (64 MiB live cap, 8 MiB slack, the worker's own young space).
    // Before: recheck's agent grew to 400 MiB for 16 such patterns.
    expect(peak - idle).toBeLessThan(160);
    expect(mostThreads).toBe(1);
    expect(mostChildren).toBe(0);
    // Each is refused (too complex, or busy for the account's own share), none accepted unanalysed.
    expect(verdicts.every((verdict) => !verdict.ok)).toBe(true);
    await checker.close();
    expect(checker.threads()).toBe(0);
    expect(childProcesses()).toEqual([]);
  });

  it('should drop a cancelled waiting analysis without stopping the one running', async () => {
    const checker = newChecker();
    await checker.warmUp();
    const running = checker.analyse(`^(?:${POLYNOMIAL})$`, 'u', 0, new AbortController().signal);
    const cancel = new AbortController();
    const waiting = checker.analyse('^(?:[a-z]+@[0-9]+)$', 'u', 0, cancel.signal);
    cancel.abort();
    expect(await waiting).toEqual({ status: 'unknown', error: 'cancel' });
    expect(await running).toMatchObject({ status: 'vulnerable', complexity: 'polynomial' });
    expect(checker.threads()).toBe(1);
  });

  it('should give a pattern the same verdict on an idle and on a busy machine', async () => {
    const patterns = [POLYNOMIAL, blowsUp('m'), fuzzesLong('m'), '[a-z]+@[0-9]+'];
    const judge = async () => {
      const guard = defaultPatternGuard({ analyser: newChecker().analyse, analysisTimeoutMillis: 120_000 });
      const verdicts = [];
      for (const pattern of patterns) verdicts.push(reasonOf(await guard.check(pattern)));
      return verdicts;
    };
    const idle = await judge();
    // Two processes spinning on the machine's two cores while the same patterns are judged again.
    for (let i = 0; i < 2; i++) {
      burners.push(
        recordChild(
          spawn(process.execPath, ['-e', 'for (;;) {}'], { ...childGroupOptions(), stdio: 'ignore' }),
        ),
      );
    }
    const busy = await judge();
    expect(busy).toEqual(idle);
    expect(idle[0]).toMatch(/polynomial/);
    expect(idle[1]).toMatch(/too complex for the gateway to check/);
    expect(idle[3]).toBe('accepted');
  }, 900_000);
});

describe('the checker at the gateway’s start', () => {
  const h = useHarness({ listen: false });

  it('should analyse the first pattern after start (warmed up before listening), not refuse it', async () => {
    const answer = await h.post(LOGIN, { username: 'demo', password: 'demo-password' });
    const token = (answer.data?.login as { token: string }).token;
    const first = await h.post(
      `query F($p: String!) { objects(objectName: "com.example.LoanType", filter: { criteria: [{ fieldName: "loanType", operator: matches, value: $p }] }) { totalCount } }`,
      { p: POLYNOMIAL },
      { authorization: `Bearer ${token}` },
    );
    expect(first.errors?.[0]?.message).toMatch(/polynomial/);
    expect(first.errors?.[0]?.message).not.toMatch(/could not|retry/);
  });
});
