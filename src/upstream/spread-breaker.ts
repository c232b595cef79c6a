/**
 * A circuit breaker that one tenant cannot open. It wraps cockatiel's `SamplingBreaker` (open when most
 * calls of a window found the upstream sick) and adds one condition: the sick answers of the window must
 * have come from at least `minSources` different sources (users, or logins of different names). An
 * upstream that is really down fails everyone's calls and opens it as before; a caller whose own input
 * makes the upstream fail (a Java service answering 500 to something the gateway could not foresee) only
 * fails its own calls, and the other tenants keep the upstream.
 */
import { CircuitState, type IBreaker } from 'cockatiel';

/** Options of {@link SpreadBreaker}. */
export interface SpreadBreakerOptions {
  /** The rate-based breaker that decides whether the window is sick at all. */
  inner: IBreaker;
  /** Different sources whose calls must have failed in the window before it opens. */
  minSources: number;
  /** The window, in milliseconds (the inner breaker's sampling duration). */
  windowMillis: number;
  /**
   * The source of the failure being recorded, read when the policy reports it. `undefined` counts as a
   * source of its own (an unknown caller is never assumed to be the same one).
   */
  sourceOfLastFailure: () => string | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** See the module comment. */
export class SpreadBreaker implements IBreaker {
  readonly #options: SpreadBreakerOptions;
  readonly #lastFailureAt = new Map<string, number>();
  #anonymous = 0;

  constructor(options: SpreadBreakerOptions) {
    this.#options = options;
  }

  get state(): unknown {
    return this.#options.inner.state;
  }

  set state(value: unknown) {
    this.#options.inner.state = value;
  }

  success(state: CircuitState): void {
    if (state === CircuitState.HalfOpen) this.#lastFailureAt.clear();
    this.#options.inner.success(state);
  }

  failure(state: CircuitState): boolean {
    const now = (this.#options.now ?? Date.now)();
    const source = this.#options.sourceOfLastFailure() ?? `anonymous:${String((this.#anonymous += 1))}`;
    this.#lastFailureAt.set(source, now);
    const sick = this.#options.inner.failure(state);
    // A failing half-open probe reopens, whoever sent it: the upstream has not shown it recovered.
    if (state !== CircuitState.Closed) return sick;
    return sick && this.#sourcesSince(now - this.#options.windowMillis) >= this.#options.minSources;
  }

  /** Sources with a failure after `since`; older entries are forgotten on the way. */
  #sourcesSince(since: number): number {
    let count = 0;
    for (const [source, at] of this.#lastFailureAt) {
      if (at > since) count += 1;
      else this.#lastFailureAt.delete(source);
    }
    return count;
  }
}
