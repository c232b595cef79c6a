/**
 * A circuit breaker that one tenant cannot open. It wraps cockatiel's `SamplingBreaker` (open when most
 * calls of a window found the upstream sick) and adds one condition: the sick answers of the window must
 * have come from at least `minSources` different sources. A source is an identity the upstream accepted (a
 * session's user) or, for calls without one (logins), the network the call came from (`address-bucket.ts`),
 * never a name the caller typed: forty logins with invented names are one source. An upstream that is
 * really down fails everyone's calls and opens it as before; a caller whose own input makes the upstream
 * fail (a Java service answering 500 to something the gateway could not foresee) only fails its own calls,
 * and the other tenants keep the upstream.
 *
 * Only the `minSources` most recent sources are remembered: whether that many failed within the window is
 * all the rule asks, so the memory is bounded by the setting, not by how many callers fail.
 */
import { CircuitState, type IBreaker } from 'cockatiel';

/** Options of {@link SpreadBreaker}. */
export interface SpreadBreakerOptions {
  /** The rate-based breaker that decides whether the window is sick at all. */
  inner: IBreaker;
  /** Different sources whose calls must have failed in the window before it opens (at least 1). */
  minSources: number;
  /** The window, in milliseconds (the inner breaker's sampling duration). */
  windowMillis: number;
  /**
   * The source of the failure being recorded, read when the policy reports it. `undefined` (a call nobody
   * attributed) counts as one shared source: a source that cost nothing to make would be a free vote.
   */
  sourceOfLastFailure: () => string | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** The one source of every failure no call attributed. */
const UNATTRIBUTED = 'unattributed';

/** See the module comment. */
export class SpreadBreaker implements IBreaker {
  readonly #options: SpreadBreakerOptions;
  /** Most recent failure of each source, oldest first; at most `minSources` entries. */
  readonly #lastFailureAt = new Map<string, number>();

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
    const source = this.#options.sourceOfLastFailure() ?? UNATTRIBUTED;
    // Re-inserted to move it to the end; the oldest beyond `minSources` cannot change the answer.
    this.#lastFailureAt.delete(source);
    this.#lastFailureAt.set(source, now);
    for (const oldest of this.#lastFailureAt.keys()) {
      if (this.#lastFailureAt.size <= this.#options.minSources) break;
      this.#lastFailureAt.delete(oldest);
    }
    const sick = this.#options.inner.failure(state);
    // A failing half-open probe reopens, whoever sent it: the upstream has not shown it recovered.
    if (state !== CircuitState.Closed) return sick;
    return sick && this.#sourcesSince(now - this.#options.windowMillis) >= this.#options.minSources;
  }

  /** Sources (of the most recent ones kept) with a failure after `since`; older ones are forgotten. */
  #sourcesSince(since: number): number {
    let count = 0;
    for (const [source, at] of this.#lastFailureAt) {
      if (at > since) count += 1;
      else this.#lastFailureAt.delete(source);
    }
    return count;
  }
}
