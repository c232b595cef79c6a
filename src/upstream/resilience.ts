/**
 * Resilience around the upstream client: a circuit breaker per upstream origin, one bulkhead over all calls,
 * read retries within a retry budget, and the caller's own deadline. It wraps an {@link UpstreamClient}
 * (built with `readRetries: 0`, so that every retry passes through here) and stays free of any framework.
 *
 * - Breaker (cockatiel): after `breakerFailures` consecutive calls that found the upstream sick (timeout,
 *   unavailable, undecodable) every call to that origin fails fast with kind `circuit_open`; after
 *   `breakerHalfOpenAfterMillis` one probe call is let through and its outcome closes or reopens it.
 *   An upstream `status: error` answer is a healthy upstream saying no, so it counts as a success.
 * - Bulkhead (cockatiel): at most `maxConcurrentCalls` calls in flight and `maxQueuedCalls` waiting; beyond
 *   that a call fails at once with kind `overloaded` instead of piling up memory and latency.
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
  ConsecutiveBreaker,
  IsolatedCircuitError,
  TaskCancelledError,
  bulkhead,
  circuitBreaker,
  handleWhen,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { UpstreamError, countsAgainstUpstream, isUpstreamError } from './errors.ts';
import { RETRY_BASE_DELAY_MILLIS } from './retry-read.ts';
import { createRetryBudget, type RetryBudget } from './retry-budget.ts';
import type { UpstreamClient } from './types.ts';
import type { WireOperation } from './wire.ts';

/** A breaker's state, as metrics and readiness report it. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** Why the guard itself refused or cut a call. */
export type GuardRejection = 'circuit_open' | 'overloaded' | 'deadline';

/** Options of {@link withResilience}; durations in milliseconds. */
export interface ResilienceOptions {
  /** The origin (`http://host:port`) each operation is sent to: one breaker per origin. */
  originOf(operation: WireOperation): string;
  /** Retries of a failed read (`timeout`/`unavailable`). Default `2`. */
  readRetries?: number;
  /** Default: 20 % of the successes of the last 10 s. */
  retryBudget?: RetryBudget;
  /** Consecutive sick answers that open an origin's breaker. Default `5`. */
  breakerFailures?: number;
  /** How long an open breaker fails fast before a half-open probe. Default `5_000`. */
  breakerHalfOpenAfterMillis?: number;
  /** Upstream calls in flight at once, over all origins. Default `64`. */
  maxConcurrentCalls?: number;
  /** Calls waiting for a slot; more are refused with `overloaded`. Default `512`. */
  maxQueuedCalls?: number;
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
  const readRetries = options.readRetries ?? 2;
  const budget = options.retryBudget ?? createRetryBudget();
  const halfOpenAfter = options.breakerHalfOpenAfterMillis ?? 5_000;
  const breakerFailures = options.breakerFailures ?? 5;
  const slots = bulkhead(options.maxConcurrentCalls ?? 64, options.maxQueuedCalls ?? 512);
  const breakers = new Map<string, { policy: CircuitBreakerPolicy; openedAt: number }>();
  // Errors this guard made itself: they say nothing about the upstream's health.
  const own = new WeakSet<object>();

  function breakerFor(origin: string) {
    let entry = breakers.get(origin);
    if (entry === undefined) {
      const policy = circuitBreaker(
        handleWhen((error) => countsAgainstUpstream(error) && !own.has(error)),
        { halfOpenAfter, breaker: new ConsecutiveBreaker(breakerFailures) },
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

  function refuse(operation: WireOperation, reason: GuardRejection): UpstreamError {
    options.onRejected?.(operation, reason);
    const error =
      reason === 'circuit_open'
        ? new UpstreamError('circuit_open', 'circuit open after repeated failures; failing fast', {
            operation,
          })
        : reason === 'overloaded'
          ? new UpstreamError('overloaded', 'too many upstream calls waiting', { operation })
          : new UpstreamError('timeout', 'the request deadline passed', { operation });
    own.add(error);
    return error;
  }

  /** One attempt through breaker, bulkhead and deadline. */
  async function attempt<T>(operation: WireOperation, call: () => Promise<T>): Promise<T> {
    const remaining = options.remainingMillis?.();
    if (remaining !== undefined && remaining <= 0) throw refuse(operation, 'deadline');
    const controller = new AbortController();
    const running = breakerFor(options.originOf(operation)).execute(
      () => slots.execute(call, controller.signal),
      controller.signal,
    );
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
      if (error instanceof BulkheadRejectedError) throw refuse(operation, 'overloaded');
      if (error instanceof TaskCancelledError) throw refuse(operation, 'deadline');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads: retried on `timeout`/`unavailable` while retries, budget and deadline allow. */
  async function read<T>(operation: WireOperation, call: () => Promise<T>): Promise<T> {
    for (let attemptNumber = 1; ; attemptNumber++) {
      try {
        const result = await attempt(operation, call);
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
  async function once<T>(operation: WireOperation, call: () => Promise<T>): Promise<T> {
    const result = await attempt(operation, call);
    budget.recordSuccess();
    return result;
  }

  return {
    loginJson: (username, password) => once('loginJson', () => client.loginJson(username, password)),
    loginForm: (username, password) => once('loginForm', () => client.loginForm(username, password)),
    getMetadata: (credentials, objectId, category) =>
      read('metadata', () => client.getMetadata(credentials, objectId, category)),
    getObject: (credentials, objectName, criteria) =>
      read('getObject', () => client.getObject(credentials, objectName, criteria)),
    getAll: (credentials, objectName, criteria, pageSize, pageIndex) =>
      read('getAll', () => client.getAll(credentials, objectName, criteria, pageSize, pageIndex)),
    save: (credentials, objectName, data) => once('save', () => client.save(credentials, objectName, data)),
    update: (credentials, objectName, id, data) =>
      once('update', () => client.update(credentials, objectName, id, data)),
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

/** "Equal jitter", as `retry-read.ts`: half the exponential delay fixed, half random. */
function backoffMillis(attemptNumber: number): number {
  const ceiling = RETRY_BASE_DELAY_MILLIS * 2 ** (attemptNumber - 1);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
