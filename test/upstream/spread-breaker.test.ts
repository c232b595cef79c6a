/**
 * The breaker one tenant cannot open: the sick answers of a window must come from `minSources` accepted
 * identities, and calls without one (logins) are one source that votes only where one source is enough.
 * (That such calls are then left out of the failure rate too is the resilience layer's part:
 * `test/hardening/resilience.test.ts`.)
 */
import { CircuitState, SamplingBreaker } from 'cockatiel';
import { describe, expect, it } from 'vitest';
import { SpreadBreaker } from '../../src/upstream/resilience/spread-breaker.ts';

/** A breaker over cockatiel's: opens above 50 % failures of a 10 s window with at least 5 calls. */
function breaker(minSources: number) {
  let source: string | undefined;
  const spread = new SpreadBreaker({
    inner: new SamplingBreaker({ threshold: 0.5, duration: 10_000, minimumRps: 0.5 }),
    minSources,
    windowMillis: 10_000,
    sourceOfLastFailure: () => source,
  });
  return {
    succeed: (times: number) => {
      for (let i = 0; i < times; i += 1) spread.success(CircuitState.Closed);
    },
    /** Reports `times` failures of `from` (`undefined`: a login); true when the last one opened it. */
    fail: (from: string | undefined, times = 1) => {
      let opened = false;
      source = from;
      for (let i = 0; i < times; i += 1) opened = spread.failure(CircuitState.Closed);
      source = undefined;
      return opened;
    },
  };
}

describe('SpreadBreaker', () => {
  it('should open when the calls of two users mostly fail', () => {
    const b = breaker(2);
    b.succeed(4);
    expect(b.fail('alice', 5)).toBe(false);
    expect(b.fail('bob', 1)).toBe(true);
  });

  it('should never open on one user alone, however many of its calls fail', () => {
    const b = breaker(2);
    expect(b.fail('alice', 50)).toBe(false);
  });

  it('should count failing logins, rate and vote, where one source is enough', () => {
    const b = breaker(1);
    b.succeed(4);
    expect(b.fail(undefined, 5)).toBe(true);
  });
});
