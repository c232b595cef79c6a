/**
 * The breakers of one resilience layer, one per upstream origin, made on an origin's first call: each an
 * {@link OriginBreaker} over cockatiel's `SamplingBreaker` (the window's failure rate) wrapped in a
 * {@link SpreadBreaker} (no single source can open it).
 */
import { SamplingBreaker } from 'cockatiel';
import { OriginBreaker, type BreakerState } from './origin-breaker.ts';
import type { ResilienceOptions } from './resilience-options.ts';
import { SpreadBreaker } from './spread-breaker.ts';

/** See the module comment. */
export interface OriginBreakers {
  breakerFor(origin: string): OriginBreaker;
  /** Reports a failure that counts against the upstream, with the source whose vote it is. */
  failed(breaker: OriginBreaker, probe: boolean, source: string | undefined): void;
  /** Each origin's breaker state (origins seen so far). */
  states(): Record<string, BreakerState>;
  /** True while some breaker is open and not yet due for its half-open probe. */
  isFailingFast(): boolean;
}

/** Creates the breakers from the layer's settings. */
export function createOriginBreakers(options: ResilienceOptions): OriginBreakers {
  const breakers = new Map<string, OriginBreaker>();
  // Whose call the failure being reported came from, for the breaker's "more than one source" rule.
  let sourceOfFailure: string | undefined;

  function breakerFor(origin: string): OriginBreaker {
    let breaker = breakers.get(origin);
    if (breaker === undefined) {
      const windowMillis = options.breakerWindowMillis;
      const spread = new SpreadBreaker({
        inner: new SamplingBreaker({
          threshold: options.breakerFailurePercent / 100,
          duration: windowMillis,
          minimumRps: options.breakerMinimumCalls / (windowMillis / 1000),
        }),
        minSources: options.breakerMinimumSources,
        windowMillis,
        sourceOfLastFailure: () => sourceOfFailure,
      });
      breaker = new OriginBreaker(spread, options.breakerHalfOpenAfterMillis, (state) =>
        options.onBreakerStateChange?.(origin, state),
      );
      breakers.set(origin, breaker);
      options.onBreakerStateChange?.(origin, 'closed');
    }
    return breaker;
  }

  /** The session's own share of the bulkhead; made on its first call, dropped when it is idle. */
  return {
    breakerFor,
    failed(breaker, probe, source) {
      sourceOfFailure = source;
      breaker.failed(probe);
      sourceOfFailure = undefined;
    },
    states() {
      return Object.fromEntries([...breakers].map(([origin, breaker]) => [origin, breaker.state]));
    },
    isFailingFast() {
      const now = Date.now();
      return [...breakers.values()].some((breaker) => breaker.isFailingFast(now));
    },
  };
}
