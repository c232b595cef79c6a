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
 * 3b. alternatives and counts may multiply to at most `maxPaths` ways of matching (a hundredth of it with an
 *    unbounded repetition): a cost the checker, which measures growth with the subject's length, calls
 *    constant, but `(a|a){25}` takes a second in Java on 25 characters;
 * 4. patterns without unbounded repetition, and literal runs (`lit`, `lit.*`, `.*lit`, with classes such
 *    as `[Hh]` as letters) are accepted without further analysis;
 * 5. everything else goes to the ReDoS checker (`redos-analyser.ts`), off the event loop, at most
 *    `maxConcurrentChecks` at once with `maxQueuedChecks` waiting, within `analysisTimeoutMillis`; a
 *    timeout, a full queue or a failure refuses the pattern (fails closed). Exponential backtracking is
 *    refused, and so is polynomial backtracking above `maxPolynomialDegree`.
 */
import { LRUCache } from 'lru-cache';
import {
  BulkheadRejectedError,
  TaskCancelledError,
  TimeoutStrategy,
  bulkhead,
  timeout,
  wrap,
} from 'cockatiel';
import { PatternRefusal, type RegexNode } from './java-regex-ast.ts';
import { parseJavaRegex } from './java-regex-parser.ts';
import * as reasons from './pattern-reasons.ts';
import { recheckAnalyser, type Analyser } from './redos-analyser.ts';
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
import { SETTING_DEFAULTS } from '../config/defaults.ts';

/** The guard's answer for one pattern. */
export type PatternVerdict =
  | { ok: true }
  /** `busy`: not the pattern's fault; the guard had no room to analyse it now, and a retry may pass. */
  | { ok: false; reason: string; busy?: true };

/** Options of {@link createPatternGuard}. */
export interface PatternGuardOptions {
  /** Longest pattern accepted, in UTF-16 units. Default `512` (the setting `MAX_PATTERN_LENGTH`). */
  maxLength?: number;
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
  /** Time one analysis may take, waiting for a slot included, in milliseconds. Default `2_000`. */
  analysisTimeoutMillis?: number;
  /** Analyses running at once (each a request to the checker's process). Default `2`. */
  maxConcurrentChecks?: number;
  /** Analyses waiting for a slot; more are refused at once. Default `16`. */
  maxQueuedChecks?: number;
  /** Verdicts remembered, least recently used forgotten first. Default `2_000` patterns. */
  cacheMaxEntries?: number;
  /** How long a timed-out analysis's refusal is remembered, in milliseconds. Default `60_000`. */
  timeoutVerdictTtlMillis?: number;
  /** The ReDoS checker. Default: {@link recheckAnalyser}. */
  analyser?: Analyser;
}

/** See {@link createPatternGuard}. */
export interface PatternGuard {
  /**
   * Whether `pattern` may be sent; `reason` tells the caller what to change. Asynchronous so that an
   * expensive analysis never blocks the event loop for other tenants; cached per pattern.
   */
  check(pattern: string): Promise<PatternVerdict>;
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
export function createPatternGuard(options: PatternGuardOptions = {}): PatternGuard {
  const maxLength = options.maxLength ?? SETTING_DEFAULTS.MAX_PATTERN_LENGTH;
  const maxLiteralAlternationLength = Math.max(maxLength, options.maxLiteralAlternationLength ?? 16_384);
  const maxPaths = options.maxPaths ?? 10_000;
  const maxPolynomialDegree = options.maxPolynomialDegree ?? 1;
  const timeoutMillis = options.analysisTimeoutMillis ?? 2_000;
  const timeoutVerdictTtl = options.timeoutVerdictTtlMillis ?? 60_000;
  const analyser = options.analyser ?? recheckAnalyser;
  // The time limit wraps the queue: a caller never waits longer than `timeoutMillis` for a verdict.
  const policy = wrap(
    timeout(timeoutMillis, TimeoutStrategy.Aggressive),
    bulkhead(options.maxConcurrentChecks ?? 2, options.maxQueuedChecks ?? 16),
  );
  const cache = new LRUCache<string, PatternVerdict>({
    max: options.cacheMaxEntries ?? 2_000,
    maxSize: CACHE_MAX_CHARACTERS,
    sizeCalculation: (_verdict, pattern) => pattern.length + 1,
  });
  const inFlight = new Map<string, Promise<PatternVerdict>>();

  async function analyse(pattern: string, tree: RegexNode): Promise<Outcome> {
    const { source, leaves } = toCheckerSource(tree);
    let analysis;
    try {
      analysis = await policy.execute(({ signal }) => analyser(source, 'u', timeoutMillis, signal));
    } catch (error) {
      if (error instanceof BulkheadRejectedError) {
        return { verdict: { ok: false, reason: reasons.BUSY, busy: true }, cache: 'never' };
      }
      if (error instanceof TaskCancelledError)
        return refuse(reasons.notAnalysed(true, timeoutMillis), 'briefly');
      return refuse(reasons.notAnalysed(false, timeoutMillis), 'briefly');
    }
    switch (analysis.status) {
      case 'safe':
        return { verdict: ACCEPTED, cache: 'always' };
      case 'unknown':
        return refuse(reasons.notAnalysed(analysis.error === 'timeout', timeoutMillis), 'briefly');
      case 'vulnerable': {
        const hot = javaSpanOf(leaves, analysis.hotspots);
        if (analysis.complexity === 'exponential') return refuse(reasons.exponential(pattern, tree, hot));
        if (analysis.degree <= maxPolynomialDegree) return { verdict: ACCEPTED, cache: 'always' };
        return refuse(reasons.polynomial(pattern, tree, analysis.degree, hot));
      }
    }
  }

  async function decide(pattern: string): Promise<Outcome> {
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
    if (isDotStarSandwich(tree)) return refuse(reasons.dotStarSandwich(pattern));
    const looped = hasUnboundedRepeat(tree);
    const pathLimit = looped ? Math.floor(maxPaths / 100) : maxPaths;
    if (pathCount(tree) > pathLimit) return refuse(reasons.tooManyPaths(pattern, pathLimit));
    if (!looped || isLiteralRunShape(tree)) return { verdict: ACCEPTED, cache: 'always' };
    return analyse(pattern, tree);
  }

  return {
    check(pattern) {
      const known = cache.get(pattern);
      if (known) return Promise.resolve(known);
      const pending = inFlight.get(pattern);
      if (pending) return pending;
      const verdict = decide(pattern)
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
