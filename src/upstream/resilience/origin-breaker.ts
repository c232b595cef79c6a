/**
 * One origin's circuit breaker, driven synchronously: `admit()` before a call, `succeeded`/`failed` after
 * it. The decision of when the window is sick stays cockatiel's `SamplingBreaker` (through
 * `SpreadBreaker`); this class only keeps the closed/open/half-open states that cockatiel's
 * `CircuitBreakerPolicy` kept, with the same rules, without its promise and `AbortSignal` per call:
 *
 * - closed: every call passes; a counted failure that the breaker finds sick opens it.
 * - open: calls are refused until `halfOpenAfterMillis` passed; then one call is the probe (half-open).
 * - half-open: the others wait for the probe's decision, then are admitted again (or refused if it
 *   reopened). The probe's success, or a failure that does not count, closes it; a counted failure reopens.
 */
import { CircuitState, type IBreaker } from 'cockatiel';

/** A breaker's state, as metrics and readiness report it. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** What {@link OriginBreaker.admit} answers: pass, be the probe, be refused, or wait for the probe. */
export type Admission = 'pass' | 'probe' | 'refuse' | Promise<void>;

/** See the module comment. */
export class OriginBreaker {
  #state: BreakerState = 'closed';
  #openedAt = 0;
  #probing = false;
  #decision: { promise: Promise<void>; resolve: () => void } | undefined;
  readonly #breaker: IBreaker;
  readonly #halfOpenAfterMillis: number;
  readonly #onStateChange: (state: BreakerState) => void;

  constructor(breaker: IBreaker, halfOpenAfterMillis: number, onStateChange: (state: BreakerState) => void) {
    this.#breaker = breaker;
    this.#halfOpenAfterMillis = halfOpenAfterMillis;
    this.#onStateChange = onStateChange;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** True while open and not yet due for a probe: calls fail fast. */
  isFailingFast(now: number): boolean {
    return this.#state === 'open' && now - this.#openedAt < this.#halfOpenAfterMillis;
  }

  /**
   * Asks to send a call; see {@link Admission}. A caller that `mayProbe` not (a login where reads share the
   * origin) is refused where it would have been the probe, so the probe stays for a call whose answer says
   * whether the upstream serves its users again.
   */
  admit(mayProbe = true): Admission {
    if (this.#state === 'closed') return 'pass';
    if (this.#state === 'open') {
      if (Date.now() - this.#openedAt < this.#halfOpenAfterMillis) return 'refuse';
      this.#state = 'half_open';
      this.#probing = false;
      this.#onStateChange('half_open');
    }
    if (!this.#probing) {
      if (!mayProbe) return 'refuse';
      this.#probing = true;
      return 'probe';
    }
    if (this.#decision === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#decision = { promise, resolve };
    }
    return this.#decision.promise;
  }

  /** A call admitted as `probe` or `pass` answered. */
  succeeded(probe: boolean): void {
    if (!probe) {
      // As cockatiel: a call admitted while closed reports to the window whatever happened since.
      this.#breaker.success(CircuitState.Closed);
      return;
    }
    if (this.#state !== 'half_open') return;
    this.#breaker.success(CircuitState.HalfOpen);
    this.#state = 'closed';
    this.#probing = false;
    this.#decide();
    this.#onStateChange('closed');
  }

  /** A call failed in a way that says nothing of the upstream's health: a probe so ended closes it. */
  passed(probe: boolean): void {
    if (probe) this.succeeded(true);
  }

  /**
   * An admitted call was never sent (its deadline passed while it waited for a bulkhead slot): a probe's
   * turn goes to the next caller, without a decision.
   */
  withdrawn(probe: boolean): void {
    if (!probe || this.#state !== 'half_open') return;
    this.#probing = false;
    this.#decide();
  }

  /** A call admitted as `probe` or `pass` found the upstream sick. */
  failed(probe: boolean): void {
    if (!probe) {
      if (this.#breaker.failure(CircuitState.Closed) && this.#state !== 'open') this.#open();
      return;
    }
    if (this.#state !== 'half_open') return;
    this.#breaker.failure(CircuitState.HalfOpen);
    this.#open();
  }

  #open(): void {
    this.#state = 'open';
    this.#openedAt = Date.now();
    this.#probing = false;
    this.#decide();
    this.#onStateChange('open');
  }

  #decide(): void {
    const decision = this.#decision;
    this.#decision = undefined;
    decision?.resolve();
  }
}
