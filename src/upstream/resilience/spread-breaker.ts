/**
 * A circuit breaker that one tenant cannot open. It wraps cockatiel's `SamplingBreaker` (open when most
 * calls of a window found the upstream sick) and adds one condition: the sick answers of the window must
 * have come from at least `minSources` different sources. A source is an identity the upstream accepted (a
 * session's user). Calls without one (logins, whose username the caller typed, from networks it can vary)
 * are all one source, {@link ANONYMOUS_SOURCE}, and that one counts only where one source is enough
 * (`minSources` 1): otherwise an attacker's logins plus any one user's unrelated failure, or logins from two
 * networks, would make two votes. An upstream that is really down fails everyone's calls and opens it as
 * before; a caller whose own input makes the upstream fail (a Java service answering 500 to something the
 * gateway could not foresee) only fails its own calls, and the other tenants keep the upstream.
 *
 * Only the `minSources` most recent identities (and the anonymous source) are remembered: whether that many
 * failed within the window is all the rule asks, so the memory is bounded by the setting, not by how many
 * callers fail.
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
   * attributed) is {@link ANONYMOUS_SOURCE}: a source that cost nothing to make would be a free vote.
   */
  sourceOfLastFailure: () => string | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** The one source of every call without an accepted identity (logins), and of calls nobody attributed. */
export const ANONYMOUS_SOURCE = '\u0000anonymous';

/** See the module comment. */
export class SpreadBreaker implements IBreaker {
  readonly #options: SpreadBreakerOptions;
  /** Most recent failure of each source, oldest first; at most `minSources + 1` entries. */
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
    const source = this.#options.sourceOfLastFailure() ?? ANONYMOUS_SOURCE;
    // Re-inserted to move it to the end; the oldest beyond `minSources` identities and the anonymous
    // source cannot change the answer.
    this.#lastFailureAt.delete(source);
    this.#lastFailureAt.set(source, now);
    for (const oldest of this.#lastFailureAt.keys()) {
      if (this.#lastFailureAt.size <= this.#options.minSources + 1) break;
      this.#lastFailureAt.delete(oldest);
    }
    const sick = this.#options.inner.failure(state);
    // A failing half-open probe reopens, whoever sent it: the upstream has not shown it recovered.
    if (state !== CircuitState.Closed) return sick;
    return sick && this.#sourcesSince(now - this.#options.windowMillis) >= this.#options.minSources;
  }

  /**
   * Votes (of the most recent sources kept) with a failure after `since`: one per identity, and the
   * anonymous source only where one vote is enough. Older ones are forgotten.
   */
  #sourcesSince(since: number): number {
    let identities = 0;
    let anonymous = false;
    for (const [source, at] of this.#lastFailureAt) {
      if (at <= since) this.#lastFailureAt.delete(source);
      else if (source === ANONYMOUS_SOURCE) anonymous = true;
      else identities += 1;
    }
    return identities + (anonymous && this.#options.minSources <= 1 ? 1 : 0);
  }
}
