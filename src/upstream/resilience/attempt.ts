/**
 * One attempt of an upstream call through the call budget, the deadline check, the session's share, the
 * origin's breaker and the shared bulkhead (`resilience.ts` holds the retry loop around it). When a slot
 * is free all of it is synchronous and the call is sent in the same tick; a promise and a deadline timer
 * are made only for a call that must wait, or whose request deadline is nearer than the client's own call
 * deadline (`attemptTimeoutMillis`).
 */
import { countsAgainstUpstream, type UpstreamError } from '../../errors/upstream-error.ts';
import type { OriginBreaker } from './origin-breaker.ts';
import type { OriginBreakers } from './origin-breakers.ts';
import type { GuardRejection, ResilienceOptions } from './resilience-options.ts';
import { SlotGate, type SlotWait } from './slot-gate.ts';
import { ANONYMOUS_SOURCE } from './spread-breaker.ts';
import type { WireOperation } from '../client/wire.ts';
import { OPERATION_LIST, type UpstreamOperation } from '../operations.ts';

/** A call of the wrapped client; it never throws synchronously (`wrapOperations`). */
export type Call = () => Promise<unknown>;

/** Runs one attempt: `session` is whose share it takes, `source` whose vote a failure is for the breaker. */
export type Attempt = (
  operation: UpstreamOperation,
  call: Call,
  session: string | undefined,
  source: string | undefined,
) => Promise<unknown>;

/** What {@link createAttempt} needs from the resilience layer. */
export interface AttemptContext {
  options: ResilienceOptions;
  breakers: OriginBreakers;
  /** Makes the guard's own refusal (counted in metrics, never a breaker vote, never retried). */
  refuse: (operation: WireOperation, reason: GuardRejection) => UpstreamError;
  /** The guard's own errors. */
  own: WeakSet<object>;
  /** The shared bulkhead (`maxConcurrentCalls` slots, `maxQueuedCalls` waiting). */
  slots: SlotGate;
}

/** Creates the attempt of one resilience layer: its bulkhead and its sessions' shares. */
export function createAttempt(context: AttemptContext): Attempt {
  const { options, breakers, refuse, own, slots } = context;
  const { attemptTimeoutMillis } = options;
  const { maxConcurrentCallsPerSession: perSession, maxQueuedCallsPerSession: queuedPerSession } = options;
  const sessionSlots = new Map<string, SlotGate>();
  // Origins that serve the users' reads and writes. A login there never takes the half-open probe: the
  // probe's answer must say whether users are served again, and failing logins (wrong passwords answered
  // slowly, a login servlet still sick) must not keep the breaker open once reads recovered. On an origin
  // only logins reach, a login is the probe, as nothing else could be.
  const userOrigins = new Set(
    OPERATION_LIST.filter((o) => o.access !== 'login').map((o) => options.originOf(o.wire)),
  );
  const mayNotProbe = (operation: UpstreamOperation, origin: string) =>
    operation.access === 'login' && userOrigins.has(origin);

  /** The session's own share of the bulkhead; made on its first call, dropped when it is idle. */
  function sessionSlotsFor(key: string): SlotGate {
    let gate = sessionSlots.get(key);
    if (gate === undefined) {
      gate = new SlotGate(perSession, queuedPerSession);
      sessionSlots.set(key, gate);
    }
    return gate;
  }

  function releaseSession(key: string | undefined, gate: SlotGate | undefined): void {
    if (gate === undefined || key === undefined) return;
    gate.release();
    if (gate.idle) sessionSlots.delete(key);
  }

  /** Sends an admitted call (holding a bulkhead slot and its session's share) and settles the books. */
  function send(
    call: Call,
    breaker: OriginBreaker,
    probe: boolean,
    source: string | undefined,
    session: string | undefined,
    share: SlotGate | undefined,
  ): Promise<unknown> {
    // Where the anonymous source (logins, unattributed calls) has no vote, its calls are not in the failure
    // rate either, successes and failures alike: else many failing logins plus one unrelated failure each
    // of two users would make the window look sick (`spread-breaker.ts`). A half-open probe always counts.
    const counted =
      probe || options.breakerMinimumSources <= 1 || (source ?? ANONYMOUS_SOURCE) !== ANONYMOUS_SOURCE;
    // `call` never throws synchronously (`wrapOperations`).
    return call().then(
      (value) => {
        slots.release();
        if (counted) breaker.succeeded(probe);
        releaseSession(session, share);
        return value;
      },
      (error: unknown) => {
        slots.release();
        if (countsAgainstUpstream(error) && !own.has(error)) {
          if (counted) breakers.failed(breaker, probe, source);
        } else {
          breaker.passed(probe);
        }
        releaseSession(session, share);
        throw error;
      },
    );
  }

  /** `running`, or the deadline refusal if `remaining` passes first (the call then finishes on its own). */
  function withDeadline(operation: WireOperation, running: Promise<unknown>, remaining: number) {
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(refuse(operation, 'deadline'));
      }, remaining);
      running.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as it came
          reject(error);
        },
      );
    });
  }

  /** One attempt through budget, session share, breaker, bulkhead and deadline. */
  function attempt(
    operation: UpstreamOperation,
    call: Call,
    session: string | undefined,
    source: string | undefined,
  ): Promise<unknown> {
    const wire = operation.wire;
    if (options.takeCall?.() === false) return Promise.reject(refuse(wire, 'call_budget'));
    const remaining = options.remainingMillis?.();
    if (remaining !== undefined && remaining <= 0) return Promise.reject(refuse(wire, 'deadline'));
    const share = session === undefined ? undefined : sessionSlotsFor(session);
    if (share !== undefined && !share.tryTake()) {
      return attemptQueued(
        wire,
        call,
        session,
        source,
        share,
        false,
        remaining,
        mayNotProbe(operation, options.originOf(wire)),
      );
    }
    const origin = options.originOf(wire);
    const breaker = breakers.breakerFor(origin);
    const noProbe = mayNotProbe(operation, origin);
    const admission = breaker.admit(!noProbe);
    if (admission === 'refuse') {
      releaseSession(session, share);
      return Promise.reject(refuse(wire, 'circuit_open'));
    }
    if (typeof admission !== 'string' || !slots.tryTake()) {
      return attemptQueued(wire, call, session, source, share, true, remaining, noProbe, admission);
    }
    const running = send(call, breaker, admission === 'probe', source, session, share);
    // The client's call deadline ends the attempt first: a farther request deadline needs no timer.
    if (remaining === undefined || (attemptTimeoutMillis !== undefined && remaining > attemptTimeoutMillis)) {
      return running;
    }
    return withDeadline(wire, running, remaining);
  }

  /**
   * The slow path of {@link attempt}: a wait for the session's share, the breaker's probe or a bulkhead
   * slot, all under one deadline timer. `shared` tells whether the session's share is already held, `noProbe`
   * that the call may not be the breaker's probe.
   */
  async function attemptQueued(
    wire: WireOperation,
    call: Call,
    session: string | undefined,
    source: string | undefined,
    share: SlotGate | undefined,
    shared: boolean,
    remaining: number | undefined,
    noProbe: boolean,
    firstAdmission?: Exclude<ReturnType<OriginBreaker['admit']>, 'refuse'>,
  ): Promise<unknown> {
    let wait: SlotWait | undefined;
    let rejectDeadline: (error: UpstreamError) => void = () => undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      rejectDeadline = reject;
    });
    deadline.catch(() => undefined);
    const timer =
      remaining === undefined
        ? undefined
        : setTimeout(() => {
            // A queued call never starts now; one already sent finishes (or times out) on its own.
            wait?.cancel();
            rejectDeadline(refuse(wire, 'deadline'));
          }, remaining);
    const until = <T>(promise: Promise<T>): Promise<T> =>
      timer === undefined ? promise : Promise.race([promise, deadline]);
    let holdsShare = shared;
    let holdsSlot = false;
    try {
      if (share !== undefined && !holdsShare) {
        wait = share.wait();
        if (wait === undefined) throw refuse(wire, 'session_overloaded');
        await until(wait.promise);
        wait = undefined;
        holdsShare = true;
      }
      const breaker = breakers.breakerFor(options.originOf(wire));
      let admission = firstAdmission ?? breaker.admit(!noProbe);
      while (typeof admission !== 'string') {
        await until(admission);
        admission = breaker.admit(!noProbe);
      }
      if (admission === 'refuse') throw refuse(wire, 'circuit_open');
      if (!slots.tryTake()) {
        wait = slots.wait();
        try {
          if (wait === undefined) throw refuse(wire, 'overloaded');
          await until(wait.promise);
        } catch (error) {
          breaker.withdrawn(admission === 'probe');
          throw error;
        }
        wait = undefined;
      }
      holdsSlot = true;
      const running = send(call, breaker, admission === 'probe', source, session, share);
      holdsShare = false;
      return await until(running);
    } finally {
      clearTimeout(timer);
      if (!holdsSlot && holdsShare) releaseSession(session, share);
      else if (share !== undefined && session !== undefined && share.idle) sessionSlots.delete(session);
    }
  }

  return attempt;
}
