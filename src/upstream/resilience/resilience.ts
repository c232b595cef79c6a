/**
 * Resilience around the upstream client: a circuit breaker per upstream origin, one bulkhead over all calls
 * with a fair share per session, a per-request call budget, read retries within a retry budget, and the
 * caller's own deadline. It wraps an {@link UpstreamClient} (which never retries: this is the one retry
 * loop) and stays free of any framework.
 *
 * - Breaker (cockatiel `SamplingBreaker`): opens when more than `breakerFailurePercent` of the calls of the
 *   last `breakerWindowMillis` found the upstream sick, once at least `breakerMinimumCalls` calls were
 *   made in that window; then every call to that origin fails fast with kind `circuit_open` until a
 *   half-open probe after `breakerHalfOpenAfterMillis` closes or reopens it. Only ill health counts
 *   (`countsAgainstUpstream`: timeout, unavailable, undecodable, lost write answers): a caller's mistake
 *   or the upstream's deliberate `status: error` is an upstream that answered, so no tenant can open the
 *   breaker for the others with bad input, and a rate over many calls is not moved by one noisy caller.
 * - Bulkhead (cockatiel): at most `maxConcurrentCalls` calls in flight and `maxQueuedCalls` waiting; beyond
 *   that a call fails at once with kind `overloaded` instead of piling up memory and latency. In front of
 *   it, each session (its upstream token) holds at most `maxConcurrentCallsPerSession` of those slots and
 *   waits in a queue of its own (`maxQueuedCallsPerSession`, then `session_overloaded`), so a session
 *   that loops on expensive requests waits for itself while the others are served.
 * - Call budget: `takeCall()` is asked before every attempt; when it says no (the GraphQL request spent
 *   `MAX_UPSTREAM_CALLS_PER_REQUEST`), the call is refused with kind `call_budget`, nothing sent.
 * - Retries: reads only, at most `readRetries` times, jittered exponential backoff, and only while the
 *   {@link RetryBudget} allows (retries at most 20 % of recent successes by default). Writes never.
 * - Deadline: `remainingMillis()` (the GraphQL request's time left) bounds queueing, attempts and backoff;
 *   when it runs out the caller gets kind `timeout` while an attempt already sent finishes on its own.
 *
 * The read path is flat (docs/design.md, "The upstream read path"): the checks, the session share, the
 * breaker and the bulkhead are synchronous counters when a slot is free (`slot-gate.ts`,
 * `origin-breaker.ts`); a promise, a timer or a wait is made only when a call must queue, when the
 * request's deadline is nearer than the client's own call deadline, or when a retry happens. No layer here
 * makes an `AbortSignal`: the one per call is the HTTP transport's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SamplingBreaker } from 'cockatiel';
import { UpstreamError, countsAgainstUpstream, isUpstreamError } from '../../errors/upstream-error.ts';
import type { RetryBudget } from './retry-budget.ts';
import { OriginBreaker, type BreakerState } from './origin-breaker.ts';
import { SlotGate, type SlotWait } from './slot-gate.ts';
import { ANONYMOUS_SOURCE, SpreadBreaker } from './spread-breaker.ts';
import type { UpstreamClient, UpstreamCredentials } from '../client/types.ts';
import type { WireOperation } from '../client/wire.ts';
import { OPERATION_LIST, wrapOperations, type UpstreamOperation } from '../operations.ts';

export type { BreakerState } from './origin-breaker.ts';

/** Why the guard itself refused or cut a call. */
export type GuardRejection =
  'circuit_open' | 'overloaded' | 'session_overloaded' | 'call_budget' | 'deadline';

/** Options of {@link withResilience}; durations in milliseconds. Values are taken as given (config). */
export interface ResilienceOptions {
  /** The origin (`http://host:port`) each operation is sent to: one breaker per origin (`originsOf`). */
  originOf(operation: WireOperation): string;
  /** Retries of a failed read (`timeout`/`unavailable`): `UPSTREAM_READ_RETRIES`. */
  readRetries: number;
  /** Retries at most a share of recent successes (`createRetryBudget`). */
  retryBudget: RetryBudget;
  /** Share of sick answers, in per cent of the window's calls, that opens an origin's breaker. */
  breakerFailurePercent: number;
  /** The window the breaker samples. */
  breakerWindowMillis: number;
  /** Calls the window must hold before the breaker may open (low traffic never opens it). */
  breakerMinimumCalls: number;
  /**
   * Different sources (users the upstream accepted; all logins together one, which counts only where one
   * is enough) whose calls must have failed in the window before the breaker may open, so that no single
   * tenant can open it (`spread-breaker.ts`).
   */
  breakerMinimumSources: number;
  /** How long an open breaker fails fast before a half-open probe. */
  breakerHalfOpenAfterMillis: number;
  /** Upstream calls in flight at once, over all origins. */
  maxConcurrentCalls: number;
  /** Calls waiting for a slot; more are refused with `overloaded`. */
  maxQueuedCalls: number;
  /** Of `maxConcurrentCalls`, the most one session may hold at once (its share is computed by the config). */
  maxConcurrentCallsPerSession: number;
  /** Calls of one session waiting for its share; more are refused with `session_overloaded`. */
  maxQueuedCallsPerSession: number;
  /**
   * The client's own whole-call deadline (`UPSTREAM_CALL_TIMEOUT_MS`): no attempt outlives it, so a request
   * deadline further away than this needs no timer of its own. Without it every deadline gets a timer.
   */
  attemptTimeoutMillis?: number | undefined;
  /** Asked before every attempt; `false` refuses it with `call_budget` (the request spent its budget). */
  takeCall?: () => boolean;
  /** Time the caller still waits, or `undefined` for no deadline (called once per call and retry). */
  remainingMillis?: () => number | undefined;
  onBreakerStateChange?: (origin: string, state: BreakerState) => void;
  onRejected?: (operation: WireOperation, reason: GuardRejection) => void;
  /** After a failed read: whether the budget allowed another attempt. */
  onRetry?: (operation: WireOperation, allowed: boolean) => void;
}

/** An {@link UpstreamClient} with breakers, a bulkhead and a retry budget. */
export type ResilientClient = UpstreamClient & {
  /** Each origin's breaker state (origins seen so far). */
  breakerStates(): Record<string, BreakerState>;
  /** True while some breaker is open and not yet due for its half-open probe: calls there fail fast. */
  isFailingFast(): boolean;
};

type Call = () => Promise<unknown>;

/** Wraps `client`; see the module comment. */
export function withResilience(client: UpstreamClient, options: ResilienceOptions): ResilientClient {
  const { readRetries, retryBudget: budget, attemptTimeoutMillis } = options;
  const { maxConcurrentCallsPerSession: perSession, maxQueuedCallsPerSession: queuedPerSession } = options;
  const slots = new SlotGate(options.maxConcurrentCalls, options.maxQueuedCalls);
  const sessionSlots = new Map<string, SlotGate>();
  const breakers = new Map<string, OriginBreaker>();
  // Errors this guard made itself: they say nothing about the upstream's health.
  const own = new WeakSet<object>();
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

  function refuse(operation: WireOperation, reason: GuardRejection): UpstreamError {
    options.onRejected?.(operation, reason);
    const error = new UpstreamError(reason === 'deadline' ? 'timeout' : reason, REFUSALS[reason], {
      operation,
    });
    own.add(error);
    return error;
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
    // `call` never throws synchronously (`wrapOperations`).
    return call().then(
      (value) => {
        slots.release();
        breaker.succeeded(probe);
        releaseSession(session, share);
        return value;
      },
      (error: unknown) => {
        slots.release();
        if (countsAgainstUpstream(error) && !own.has(error)) {
          sourceOfFailure = source;
          breaker.failed(probe);
          sourceOfFailure = undefined;
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
      return attemptQueued(wire, call, session, source, share, false, remaining);
    }
    const breaker = breakerFor(options.originOf(wire));
    const admission = breaker.admit();
    if (admission === 'refuse') {
      releaseSession(session, share);
      return Promise.reject(refuse(wire, 'circuit_open'));
    }
    if (typeof admission !== 'string' || !slots.tryTake()) {
      return attemptQueued(wire, call, session, source, share, true, remaining, admission);
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
   * slot, all under one deadline timer. `shared` tells whether the session's share is already held.
   */
  async function attemptQueued(
    wire: WireOperation,
    call: Call,
    session: string | undefined,
    source: string | undefined,
    share: SlotGate | undefined,
    shared: boolean,
    remaining: number | undefined,
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
      const breaker = breakerFor(options.originOf(wire));
      let admission = firstAdmission ?? breaker.admit();
      while (typeof admission !== 'string') {
        await until(admission);
        admission = breaker.admit();
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

  function succeeded(value: unknown): unknown {
    budget.recordSuccess();
    return value;
  }

  /** After a failed first attempt: retried on `timeout`/`unavailable` while retries, budget and deadline allow. */
  async function retry(operation: UpstreamOperation, session: string, call: Call, failure: unknown) {
    let error = failure;
    for (let attemptNumber = 1; ; attemptNumber++) {
      if (attemptNumber > readRetries || !isUpstreamError(error) || !error.retryable || own.has(error)) {
        throw error;
      }
      const delay = backoffMillis(attemptNumber);
      const remaining = options.remainingMillis?.();
      const allowed = (remaining === undefined || remaining > delay) && budget.tryRetry();
      options.onRetry?.(operation.wire, allowed);
      if (!allowed) throw error;
      await sleep(delay);
      try {
        return succeeded(await attempt(operation, call, session, session));
      } catch (next) {
        error = next;
      }
    }
  }

  const guarded = wrapOperations(client, OPERATION_LIST, (operation, args, call) => {
    if (operation.access === 'login') {
      // A login's username is the caller's to invent and its network cheap to vary: all logins are one source.
      return attempt(operation, call, undefined, ANONYMOUS_SOURCE).then(succeeded);
    }
    const session = sessionOf(args[0] as UpstreamCredentials);
    const first = attempt(operation, call, session, session);
    // Writes: one attempt, never retried (a retried save could create the object twice).
    if (operation.access === 'write') return first.then(succeeded);
    return first.then(succeeded, (error: unknown) => retry(operation, session, call, error));
  });

  return {
    ...guarded,
    close: () => client.close(),
    breakerStates() {
      return Object.fromEntries([...breakers].map(([origin, breaker]) => [origin, breaker.state]));
    },
    isFailingFast() {
      const now = Date.now();
      return [...breakers.values()].some((breaker) => breaker.isFailingFast(now));
    },
  };
}

/**
 * Whose share a call comes out of, and whose failure it is for the breaker: the user (application and
 * name) the upstream accepted when the session was opened, not the token, so that logging in several
 * times gives no larger share and no second vote.
 */
function sessionOf(credentials: UpstreamCredentials): string {
  return `user:${credentials.applicationCode}\u0000${credentials.username}`;
}

const REFUSALS: Record<GuardRejection, string> = {
  circuit_open: 'circuit open after repeated failures; failing fast',
  overloaded: 'too many upstream calls waiting',
  session_overloaded: "this session's share of upstream calls is taken and its queue is full",
  call_budget:
    'The request has spent its upstream call budget (MAX_UPSTREAM_CALLS_PER_REQUEST); ask for smaller pages, fewer aliases, or no per-object metadata in large pages.',
  deadline: 'the request deadline passed',
};

/** Backoff before the first retry; doubled for each further one. */
const RETRY_BASE_DELAY_MILLIS = 50;

/**
 * "Equal jitter": half the exponential delay fixed, half random, so that replicas recovering from the same
 * upstream hiccup do not retry in lockstep.
 */
function backoffMillis(attemptNumber: number): number {
  const ceiling = RETRY_BASE_DELAY_MILLIS * 2 ** (attemptNumber - 1);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
