/**
 * The options and the answer of `withResilience` (`resilience.ts`), apart so that the pieces of the
 * resilience layer share them without importing one another.
 */
import type { BreakerState } from './origin-breaker.ts';
import type { RetryBudget } from './retry-budget.ts';
import type { UpstreamClient } from '../client/types.ts';
import type { WireOperation } from '../client/wire.ts';

/** Every reason the guard itself refuses or cuts a call, the values of {@link GuardRejection}. */
export const GUARD_REJECTIONS = [
  'circuit_open',
  'overloaded',
  'session_overloaded',
  'call_budget',
  'deadline',
] as const;

/** Why the guard itself refused or cut a call. */
export type GuardRejection = (typeof GUARD_REJECTIONS)[number];

/** Options of `withResilience`; durations in milliseconds. Values are taken as given (config). */
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
  /** The shared bulkhead now: slots taken and calls waiting (the saturation metrics). */
  bulkhead(): { inUse: number; queued: number };
};
