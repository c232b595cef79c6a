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
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BrokenCircuitError,
  BulkheadRejectedError,
  CircuitState,
  IsolatedCircuitError,
  SamplingBreaker,
  TaskCancelledError,
  bulkhead,
  circuitBreaker,
  handleWhen,
  type BulkheadPolicy,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { UpstreamError, countsAgainstUpstream, isUpstreamError } from '../../errors/upstream-error.ts';
import { createRetryBudget, type RetryBudget } from './retry-budget.ts';
import { ANONYMOUS_SOURCE, SpreadBreaker } from './spread-breaker.ts';
import type { UpstreamClient, UpstreamCredentials } from '../client/types.ts';
import type { WireOperation } from '../client/wire.ts';
import { SETTING_DEFAULTS } from '../../config/defaults.ts';

/** A breaker's state, as metrics and readiness report it. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** Why the guard itself refused or cut a call. */
export type GuardRejection =
  'circuit_open' | 'overloaded' | 'session_overloaded' | 'call_budget' | 'deadline';

/** Options of {@link withResilience}; durations in milliseconds. */
export interface ResilienceOptions {
  /** The origin (`http://host:port`) each operation is sent to: one breaker per origin. */
  originOf(operation: WireOperation): string;
  /** Retries of a failed read (`timeout`/`unavailable`). Default `SETTING_DEFAULTS.UPSTREAM_READ_RETRIES`. */
  readRetries?: number;
  /** Default: 20 % of the successes of the last 10 s. */
  retryBudget?: RetryBudget;
  /** Share of sick answers, in per cent of the window's calls, that opens an origin's breaker. Default `SETTING_DEFAULTS.UPSTREAM_BREAKER_FAILURE_PERCENT`. */
  breakerFailurePercent?: number;
  /** The window the breaker samples. Default `SETTING_DEFAULTS.UPSTREAM_BREAKER_WINDOW_MS`. */
  breakerWindowMillis?: number;
  /** Calls the window must hold before the breaker may open (low traffic never opens it). Default `SETTING_DEFAULTS.UPSTREAM_BREAKER_MIN_CALLS`. */
  breakerMinimumCalls?: number;
  /**
   * Different sources (users the upstream accepted; all logins together one, which counts only where one
   * is enough) whose calls must have failed in the window before the breaker may open, so that no single tenant can open it (`spread-breaker.ts`). Default `SETTING_DEFAULTS.UPSTREAM_BREAKER_MIN_SOURCES`.
   */
  breakerMinimumSources?: number;
  /** How long an open breaker fails fast before a half-open probe. Default `SETTING_DEFAULTS.UPSTREAM_BREAKER_HALF_OPEN_MS`. */
  breakerHalfOpenAfterMillis?: number;
  /** Upstream calls in flight at once, over all origins. Default `SETTING_DEFAULTS.UPSTREAM_MAX_CONCURRENT`. */
  maxConcurrentCalls?: number;
  /** Calls waiting for a slot; more are refused with `overloaded`. Default `SETTING_DEFAULTS.UPSTREAM_MAX_QUEUED`. */
  maxQueuedCalls?: number;
  /** Of `maxConcurrentCalls`, the most one session may hold at once. Default a quarter of it (`16`). */
  maxConcurrentCallsPerSession?: number;
  /** Calls of one session waiting for its share; more are refused with `session_overloaded`. Default `SETTING_DEFAULTS.UPSTREAM_MAX_QUEUED_PER_SESSION`. */
  maxQueuedCallsPerSession?: number;
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

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'open',
};

/** Wraps `client`; see the module comment. */
export function withResilience(client: UpstreamClient, options: ResilienceOptions): ResilientClient {
  const readRetries = options.readRetries ?? SETTING_DEFAULTS.UPSTREAM_READ_RETRIES;
  const budget = options.retryBudget ?? createRetryBudget();
  const halfOpenAfter = options.breakerHalfOpenAfterMillis ?? SETTING_DEFAULTS.UPSTREAM_BREAKER_HALF_OPEN_MS;
  const windowMillis = options.breakerWindowMillis ?? SETTING_DEFAULTS.UPSTREAM_BREAKER_WINDOW_MS;
  const minimumCalls = options.breakerMinimumCalls ?? SETTING_DEFAULTS.UPSTREAM_BREAKER_MIN_CALLS;
  const failureShare =
    (options.breakerFailurePercent ?? SETTING_DEFAULTS.UPSTREAM_BREAKER_FAILURE_PERCENT) / 100;
  const maxConcurrent = options.maxConcurrentCalls ?? SETTING_DEFAULTS.UPSTREAM_MAX_CONCURRENT;
  const perSession = options.maxConcurrentCallsPerSession ?? Math.max(1, Math.floor(maxConcurrent / 4));
  const queuedPerSession =
    options.maxQueuedCallsPerSession ?? SETTING_DEFAULTS.UPSTREAM_MAX_QUEUED_PER_SESSION;
  const slots = bulkhead(maxConcurrent, options.maxQueuedCalls ?? SETTING_DEFAULTS.UPSTREAM_MAX_QUEUED);
  const sessionSlots = new Map<string, BulkheadPolicy>();
  const breakers = new Map<string, { policy: CircuitBreakerPolicy; openedAt: number }>();
  // Errors this guard made itself: they say nothing about the upstream's health.
  const own = new WeakSet<object>();
  // Whose call each failure came from, for the breaker's "more than one source" rule.
  const sourceOfError = new WeakMap<object, string>();
  const minSources = options.breakerMinimumSources ?? SETTING_DEFAULTS.UPSTREAM_BREAKER_MIN_SOURCES;

  function breakerFor(origin: string) {
    let entry = breakers.get(origin);
    if (entry === undefined) {
      const breaker = new SpreadBreaker({
        inner: new SamplingBreaker({
          threshold: failureShare,
          duration: windowMillis,
          minimumRps: minimumCalls / (windowMillis / 1000),
        }),
        minSources,
        windowMillis,
        // The policy records the failure it is about to report as `lastFailure` just before.
        sourceOfLastFailure: () => {
          const last = policy.lastFailure;
          return last !== undefined &&
            'error' in last &&
            typeof last.error === 'object' &&
            last.error !== null
            ? sourceOfError.get(last.error)
            : undefined;
        },
      });
      const policy: CircuitBreakerPolicy = circuitBreaker(
        handleWhen((error) => countsAgainstUpstream(error) && !own.has(error)),
        { halfOpenAfter, breaker },
      );
      const created = { policy, openedAt: 0 };
      policy.onBreak(() => {
        created.openedAt = Date.now();
      });
      policy.onStateChange((state) => options.onBreakerStateChange?.(origin, STATE_NAMES[state]));
      entry = created;
      breakers.set(origin, entry);
      options.onBreakerStateChange?.(origin, 'closed');
    }
    return entry.policy;
  }

  /** The session's own share of the bulkhead; made on its first call, dropped when it is idle. */
  function sessionSlotsFor(key: string): BulkheadPolicy {
    let policy = sessionSlots.get(key);
    if (policy === undefined) {
      policy = bulkhead(perSession, queuedPerSession);
      sessionSlots.set(key, policy);
    }
    return policy;
  }

  function releaseSession(key: string, policy: BulkheadPolicy): void {
    if (policy.executionSlots === perSession && policy.queueSlots === queuedPerSession) {
      sessionSlots.delete(key);
    }
  }

  function refuse(operation: WireOperation, reason: GuardRejection): UpstreamError {
    options.onRejected?.(operation, reason);
    const error = new UpstreamError(reason === 'deadline' ? 'timeout' : reason, REFUSALS[reason], {
      operation,
    });
    own.add(error);
    return error;
  }

  /** Through the breaker and the shared bulkhead; a failure remembers its source for the breaker. */
  function guarded<T>(
    operation: WireOperation,
    call: () => Promise<T>,
    signal: AbortSignal,
    source: string | undefined,
  ): Promise<T> {
    const sourced = async (): Promise<T> => {
      try {
        return await slots.execute(call, signal);
      } catch (error) {
        if (source !== undefined && typeof error === 'object' && error !== null)
          sourceOfError.set(error, source);
        throw error;
      }
    };
    return breakerFor(options.originOf(operation)).execute(sourced, signal);
  }

  /** One attempt through budget, session share, breaker, bulkhead and deadline. */
  async function attempt<T>(
    operation: WireOperation,
    call: () => Promise<T>,
    session: string | undefined,
    source: string | undefined = session,
  ): Promise<T> {
    if (options.takeCall?.() === false) throw refuse(operation, 'call_budget');
    const remaining = options.remainingMillis?.();
    if (remaining !== undefined && remaining <= 0) throw refuse(operation, 'deadline');
    const controller = new AbortController();
    let admitted = session === undefined;
    let running: Promise<T>;
    if (session === undefined) {
      running = guarded(operation, call, controller.signal, source);
    } else {
      const share = sessionSlotsFor(session);
      running = share
        .execute(() => {
          admitted = true;
          return guarded(operation, call, controller.signal, source);
        }, controller.signal)
        .finally(() => {
          releaseSession(session, share);
        });
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      if (remaining === undefined) return await running;
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          // A queued call never starts now; one already sent finishes (or times out) on its own.
          controller.abort();
          reject(refuse(operation, 'deadline'));
        }, remaining);
      });
      running.catch(() => undefined);
      return await Promise.race([running, deadline]);
    } catch (error) {
      if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) {
        throw refuse(operation, 'circuit_open');
      }
      if (error instanceof BulkheadRejectedError) {
        throw refuse(operation, admitted ? 'overloaded' : 'session_overloaded');
      }
      if (error instanceof TaskCancelledError) throw refuse(operation, 'deadline');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads: retried on `timeout`/`unavailable` while retries, budget and deadline allow. */
  async function read<T>(operation: WireOperation, session: string, call: () => Promise<T>): Promise<T> {
    for (let attemptNumber = 1; ; attemptNumber++) {
      try {
        const result = await attempt(operation, call, session);
        budget.recordSuccess();
        return result;
      } catch (error) {
        if (attemptNumber > readRetries || !isUpstreamError(error) || !error.retryable || own.has(error)) {
          throw error;
        }
        const delay = backoffMillis(attemptNumber);
        const remaining = options.remainingMillis?.();
        const allowed = (remaining === undefined || remaining > delay) && budget.tryRetry();
        options.onRetry?.(operation, allowed);
        if (!allowed) throw error;
        await sleep(delay);
      }
    }
  }

  /** Writes and logins: one attempt, never retried (a retried save could create the object twice). */
  async function once<T>(
    operation: WireOperation,
    session: string | undefined,
    call: () => Promise<T>,
    source: string | undefined = session,
  ): Promise<T> {
    const result = await attempt(operation, call, session, source);
    budget.recordSuccess();
    return result;
  }

  return {
    // A login's username is the caller's to invent and its network cheap to vary: all logins are one source.
    loginJson: (username, password) =>
      once('loginJson', undefined, () => client.loginJson(username, password), ANONYMOUS_SOURCE),
    loginForm: (username, password) =>
      once('loginForm', undefined, () => client.loginForm(username, password), ANONYMOUS_SOURCE),
    getMetadata: (credentials, objectId, category) =>
      read('metadata', sessionOf(credentials), () => client.getMetadata(credentials, objectId, category)),
    getObject: (credentials, objectName, criteria) =>
      read('getObject', sessionOf(credentials), () => client.getObject(credentials, objectName, criteria)),
    getAll: (credentials, objectName, criteria, pageSize, pageIndex) =>
      read('getAll', sessionOf(credentials), () =>
        client.getAll(credentials, objectName, criteria, pageSize, pageIndex),
      ),
    save: (credentials, objectName, data) =>
      once('save', sessionOf(credentials), () => client.save(credentials, objectName, data)),
    update: (credentials, objectName, id, data) =>
      once('update', sessionOf(credentials), () => client.update(credentials, objectName, id, data)),
    close: () => client.close(),
    breakerStates() {
      return Object.fromEntries(
        [...breakers].map(([origin, { policy }]) => [origin, STATE_NAMES[policy.state]]),
      );
    },
    isFailingFast() {
      const now = Date.now();
      return [...breakers.values()].some(
        ({ policy, openedAt }) => policy.state === CircuitState.Open && now - openedAt < halfOpenAfter,
      );
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
