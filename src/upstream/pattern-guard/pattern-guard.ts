/**
 * The gate every caller-written regular expression passes before it reaches the upstream, whose `matches`
 * is Java's `String.matches` (a backtracking engine with no time limit): a pattern that could pin one of
 * its threads is refused here, with the construct named, instead of being sent.
 *
 * In order, cheapest first (a verdict is cached per pattern, so a hot pattern costs a map lookup):
 * 1. length: at most `maxLength` characters, except an alternation of two or more plain literals (what
 *    `alternationOf` builds for id batches: 200 ids are ~4,000 characters), whose cost in Java is linear in
 *    its length, up to `maxLiteralAlternationLength`. The gateway sends its own patterns without `check`;
 *    should one pass through it, it is accepted in about a millisecond (one parse), never analysed;
 * 2. Java syntax (`java-regex-parser.ts`): constructs Java reads differently from the checker, or that it
 *    cannot model, are refused by name (possessive quantifiers, atomic groups, lookaround, inline flags,
 *    back-references, `\Q…\E`, nested classes…);
 * 3. no group repeated more than 100 times (`(a|b)*`: Java spends a stack frame per turn of a group and
 *    overflows on long values, a 500 however linear the pattern) and no `.*x.*` (quadratic in Java on a
 *    value with line breaks; `contains` is linear): refused with what to write instead;
 * 3a. nested repetition: turns of repeated groups multiply, and Java holds each turn on its stack, so the
 *    pattern's worst stack depth (`java-stack-depth.ts`, measured on a real JVM) must stay within
 *    `MAX_JAVA_STACK_UNITS`: `(?:(?:a*b){100}){100}` overflows Java on 2,000 characters;
 * 3b. alternatives and counts may multiply to at most `maxPaths` ways of matching (a hundredth of it with an
 *    unbounded repetition): a cost the checker, which measures growth with the subject's length, calls
 *    constant, but `(a|a){25}` takes a second in Java on 25 characters;
 * 4. patterns without unbounded repetition, and literal runs (`lit`, `lit.*`, `.*lit`, with classes such
 *    as `[Hh]` as letters) are accepted without further analysis;
 * 5. everything else goes to the ReDoS checker (`redos-analyser.ts`), off the event loop, at most
 *    `maxConcurrentChecks` at once with `maxQueuedChecks` waiting, each caller at most
 *    `maxConcurrentChecksPerCaller` of them in a queue of its own (`maxQueuedChecksPerCaller`; all
 *    anonymous callers together one), taking turns (newcomers first; `fair-queue.ts`). The checker's own
 *    step budget and heap cap decide (its budget spent refuses the pattern, the same on any machine);
 *    `analysisTimeoutMillis` is only a wall-clock backstop, which answers busy; a failure refuses (fails
 *    closed), a full queue answers busy. Exponential backtracking is refused, and so is polynomial backtracking above
 *    `maxPolynomialDegree`.
 */
import { LRUCache } from 'lru-cache';
import { TaskCancelledError, TimeoutStrategy, timeout } from 'cockatiel';
import { FairQueueRefusal, createFairQueue } from './fair-queue.ts';
import { PatternRefusal, type RegexNode } from './java-regex-ast.ts';
import { parseJavaRegex } from './java-regex-parser.ts';
import * as reasons from './pattern-reasons.ts';
import { MAX_JAVA_STACK_UNITS, deepestRepetition, javaStackUnits } from './java-stack-depth.ts';
import { createRecheckAnalyser, type Analyser } from './redos-analyser.ts';
import {
  deepGroupRepeat,
  hasUnboundedRepeat,
  isDotStarSandwich,
  isLiteralAlternation,
  isLiteralRunShape,
  javaSpanOf,
  pathCount,
  toCheckerSource,
} from './regex-shape.ts';

/** The guard's answer for one pattern. */
export type PatternVerdict =
  | { ok: true }
  /** `busy`: not the pattern's fault; the guard had no room to analyse it now, and a retry may pass. */
  | { ok: false; reason: string; busy?: true };

/** Options of {@link createPatternGuard}. */
export interface PatternGuardOptions {
  /** Longest pattern accepted, in UTF-16 units (the setting `MAX_PATTERN_LENGTH`). */
  maxLength: number;
  /**
   * Longest plain alternation of literals (`a|b\.c|d`) accepted, in UTF-16 units: 200 escaped ids are
   * about 4,000. Default `16_384`.
   */
  maxLiteralAlternationLength?: number;
  /**
   * Most ways of matching that alternatives and counts may multiply to (see `pathCount`), in paths.
   * Default `10_000`; a hundredth of it when the pattern also has an unbounded repetition, since each path
   * may then cost a scan of the whole subject.
   */
  maxPaths?: number;
  /**
   * Highest degree of polynomial backtracking accepted from the checker. Default `1`: none; the `.*lit.*`
   * shape, quadratic only on subjects with line terminators, is accepted before the checker runs.
   */
  maxPolynomialDegree?: number;
  /**
   * Wall-clock backstop of one analysis, in milliseconds (past it: busy, nothing kept; the checker's step
   * budget normally ends an analysis long before); also the longest wait for a slot per round of callers
   * whose turn comes first (`fair-queue.ts`). Default `10_000`.
   */
  analysisTimeoutMillis?: number;
  /**
   * Analyses admitted at once. Default `2`: the checker's one worker runs them one after the other, the
   * second waiting inside it (its wait counts against the backstop).
   */
  maxConcurrentChecks?: number;
  /** Analyses waiting for a slot, all callers together; more are refused at once. Default `16`. */
  maxQueuedChecks?: number;
  /** Analyses of one caller (a session's user) running at once. Default `1`. */
  maxConcurrentChecksPerCaller?: number;
  /** Analyses of one caller waiting; more of its new patterns are refused as busy. Default `4`. */
  maxQueuedChecksPerCaller?: number;
  /** Analyses of all anonymous callers together, running and waiting: the smallest share. Default `1` each. */
  anonymousChecks?: number;
  /** Verdicts remembered, least recently used forgotten first. Default `2_000` patterns. */
  cacheMaxEntries?: number;
  /** How long a timed-out analysis's refusal is remembered, in milliseconds. Default `60_000`. */
  timeoutVerdictTtlMillis?: number;
  /**
   * The ReDoS checker. Default: a {@link createRecheckAnalyser} of the guard's own, started on the first
   * pattern; the gateway passes its own, warmed up before it listens.
   */
  analyser?: Analyser;
  /**
   * Told how long each analysis ran, and for whom (`undefined`: anonymous): the checker's thread is the
   * gateway's work too, charged to the caller's share of it (`src/http/capacity/cpu-share.ts`).
   */
  onAnalysis?: (caller: string | undefined, millis: number) => void;
}

/** See {@link createPatternGuard}. */
export interface PatternGuard {
  /**
   * Whether `pattern` may be sent; `reason` tells the caller what to change. Asynchronous so that an
   * expensive analysis never blocks the event loop for other tenants; cached per pattern. `caller` (a
   * session's user; `undefined`: anonymous) decides whose share of the analyses a new pattern takes; a
   * pattern already judged is answered from the cache whoever asks, without queueing.
   */
  check(pattern: string, caller?: string): Promise<PatternVerdict>;
}

/** Total length of the cached patterns, in UTF-16 units: bounds the cache's memory (~2 MB). */
const CACHE_MAX_CHARACTERS = 1_000_000;
const ACCEPTED: PatternVerdict = { ok: true };

/** A verdict, and whether it may be remembered (and for how long). */
interface Outcome {
  verdict: PatternVerdict;
  cache: 'always' | 'briefly' | 'never';
}

const refuse = (reason: string, cache: Outcome['cache'] = 'always'): Outcome => ({
  verdict: { ok: false, reason },
  cache,
});

/** Creates a guard with its own verdict cache and its own limit on concurrent analyses. */
export function createPatternGuard(options: PatternGuardOptions): PatternGuard {
  const maxLength = options.maxLength;
  const maxLiteralAlternationLength = Math.max(maxLength, options.maxLiteralAlternationLength ?? 16_384);
  const maxPaths = options.maxPaths ?? 10_000;
  const maxPolynomialDegree = options.maxPolynomialDegree ?? 1;
  const timeoutMillis = options.analysisTimeoutMillis ?? 10_000;
  const timeoutVerdictTtl = options.timeoutVerdictTtlMillis ?? 60_000;
  let analyser = options.analyser;
  // Each caller waits in its own line and takes turns with the others (`fair-queue.ts`): one account
  // looping on new patterns waits for itself. The wait and the analysis are limited separately: a caller
  // waits `timeoutMillis` for a slot per round of callers ahead of it, then the analysis has its own.
  const queue = createFairQueue({
    maxConcurrent: options.maxConcurrentChecks ?? 2,
    maxQueued: options.maxQueuedChecks ?? 16,
    share: {
      concurrent: options.maxConcurrentChecksPerCaller ?? 1,
      queued: options.maxQueuedChecksPerCaller ?? 4,
    },
    anonymousShare: { concurrent: options.anonymousChecks ?? 1, queued: options.anonymousChecks ?? 1 },
  });
  const limit = timeout(timeoutMillis, TimeoutStrategy.Aggressive);
  const cache = new LRUCache<string, PatternVerdict>({
    max: options.cacheMaxEntries ?? 2_000,
    maxSize: CACHE_MAX_CHARACTERS,
    sizeCalculation: (_verdict, pattern) => pattern.length + 1,
  });
  const inFlight = new Map<string, Promise<PatternVerdict>>();

  async function analyse(pattern: string, tree: RegexNode, caller: string | undefined): Promise<Outcome> {
    const { source, leaves } = toCheckerSource(tree);
    let analysis;
    try {
      analysis = await queue.run(
        caller,
        async () => {
          const started = performance.now();
          try {
            return await limit.execute(({ signal }) => {
              analyser ??= createRecheckAnalyser().analyse;
              return analyser(source, 'u', timeoutMillis, signal);
            });
          } finally {
            options.onAnalysis?.(caller, performance.now() - started);
          }
        },
        timeoutMillis,
      );
    } catch (error) {
      // No room, or no slot in time: not the pattern's fault, so nothing is remembered.
      // The wall-clock backstop too: a slow machine is not the pattern's fault, so no verdict is kept.
      if (error instanceof FairQueueRefusal || error instanceof TaskCancelledError) {
        return { verdict: { ok: false, reason: reasons.BUSY, busy: true }, cache: 'never' };
      }
      return refuse(reasons.notAnalysed(false, timeoutMillis), 'briefly');
    }
    switch (analysis.status) {
      case 'safe':
        return { verdict: ACCEPTED, cache: 'always' };
      case 'unknown':
        // The step budget or the heap cap: decided by the pattern alone, so the refusal is kept.
        if (analysis.error === 'steps' || analysis.error === 'memory') return refuse(reasons.tooComplex());
        // The wall-clock backstop cancelled it (the checker honours the signal and answers before the
        // timeout's rejection arrives): a slow machine, not the pattern, so busy and nothing kept.
        if (analysis.error === 'cancel') {
          return { verdict: { ok: false, reason: reasons.BUSY, busy: true }, cache: 'never' };
        }
        if (analysis.error === 'timeout') return refuse(reasons.notAnalysed(true, timeoutMillis), 'briefly');
        return refuse(reasons.notAnalysed(false, timeoutMillis), 'briefly');
      case 'vulnerable': {
        const hot = javaSpanOf(leaves, analysis.hotspots);
        if (analysis.complexity === 'exponential') return refuse(reasons.exponential(pattern, tree, hot));
        if (analysis.degree <= maxPolynomialDegree) return { verdict: ACCEPTED, cache: 'always' };
        return refuse(reasons.polynomial(pattern, tree, analysis.degree, hot));
      }
    }
  }

  async function decide(pattern: string, caller: string | undefined): Promise<Outcome> {
    if (pattern.length > maxLiteralAlternationLength) {
      return refuse(reasons.tooLong(pattern.length, maxLength), 'never');
    }
    let tree: RegexNode;
    try {
      tree = parseJavaRegex(pattern);
    } catch (error) {
      if (!(error instanceof PatternRefusal)) throw error;
      return refuse(
        pattern.length > maxLength
          ? reasons.tooLong(pattern.length, maxLength)
          : reasons.refused(pattern, error),
      );
    }
    if (pattern.length > maxLength) {
      // Only the gateway's own shape, an alternation of escaped ids, may be longer (linear in Java).
      return tree.type === 'alternation' && isLiteralAlternation(tree)
        ? { verdict: ACCEPTED, cache: 'always' }
        : refuse(reasons.tooLong(pattern.length, maxLength), 'never');
    }
    if (isLiteralAlternation(tree)) return { verdict: ACCEPTED, cache: 'always' };
    const deep = deepGroupRepeat(tree);
    if (deep !== undefined) return refuse(reasons.deepGroupRepeat(pattern, deep));
    if (javaStackUnits(tree) > MAX_JAVA_STACK_UNITS) {
      const culprit = deepestRepetition(tree, MAX_JAVA_STACK_UNITS);
      return refuse(reasons.nestedRepetition(pattern, culprit, MAX_JAVA_STACK_UNITS));
    }
    if (isDotStarSandwich(tree)) return refuse(reasons.dotStarSandwich(pattern));
    const looped = hasUnboundedRepeat(tree);
    const pathLimit = looped ? Math.floor(maxPaths / 100) : maxPaths;
    if (pathCount(tree) > pathLimit) return refuse(reasons.tooManyPaths(pattern, pathLimit));
    if (!looped || isLiteralRunShape(tree)) return { verdict: ACCEPTED, cache: 'always' };
    return analyse(pattern, tree, caller);
  }

  return {
    check(pattern, caller) {
      const known = cache.get(pattern);
      if (known) return Promise.resolve(known);
      const pending = inFlight.get(pattern);
      if (pending) return pending;
      const verdict = decide(pattern, caller)
        .catch((): Outcome => refuse(reasons.notAnalysed(false, timeoutMillis), 'briefly'))
        .then(({ verdict, cache: remember }) => {
          if (remember === 'always') cache.set(pattern, verdict);
          else if (remember === 'briefly') cache.set(pattern, verdict, { ttl: timeoutVerdictTtl });
          return verdict;
        })
        .finally(() => inFlight.delete(pattern));
      inFlight.set(pattern, verdict);
      return verdict;
    },
  };
}
