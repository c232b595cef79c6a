/**
 * The gate every caller-written regular expression passes before it reaches the upstream, whose `matches`
 * is Java's `String.matches` (a backtracking engine with no time limit): a pattern that could pin one of
 * its threads is refused here, with the construct named, instead of being sent.
 *
 * STUB: only the length cap for now; the ReDoS analysis lands with its Java-backed test.
 */

/** The guard's answer for one pattern. */
export type PatternVerdict = { ok: true } | { ok: false; reason: string };

/** Options of {@link createPatternGuard}. */
export interface PatternGuardOptions {
  /** Longest pattern accepted, in UTF-16 units. Default `512`. */
  maxLength?: number;
}

/** See {@link createPatternGuard}. */
export interface PatternGuard {
  /**
   * Whether `pattern` may be sent; `reason` tells the caller what to change. Asynchronous so that an
   * expensive analysis never blocks the event loop for other tenants; cached per pattern.
   */
  check(pattern: string): Promise<PatternVerdict>;
}

/** Creates a guard with its own verdict cache. */
export function createPatternGuard(options: PatternGuardOptions = {}): PatternGuard {
  const maxLength = options.maxLength ?? 512;
  return {
    check(pattern) {
      if (pattern.length > maxLength) {
        return Promise.resolve({ ok: false, reason: `the pattern is longer than ${maxLength} characters` });
      }
      return Promise.resolve({ ok: true });
    },
  };
}
