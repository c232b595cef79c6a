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
 * - Bulkhead (`slot-gate.ts`): at most `maxConcurrentCalls` calls in flight and `maxQueuedCalls` waiting; beyond
 *   that a call fails at once with kind `overloaded` instead of piling up memory and latency. In front of
 *   it, each session (its upstream token) holds at most `maxConcurrentCallsPerSession` of those slots and
 *   waits in a queue of its own (`maxQueuedCallsPerSession`, then `session_overloaded`), so a session
 *   that loops on expensive requests waits for itself while the others are served. All logins together
 *   are one such share: a login flood waits for itself too.
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
import { UpstreamError, isUpstreamError } from '../../errors/upstream-error.ts';
import { createAttempt, type Call } from './attempt.ts';
import { createOriginBreakers } from './origin-breakers.ts';
import type { GuardRejection, ResilienceOptions, ResilientClient } from './resilience-options.ts';
import { ANONYMOUS_SOURCE } from './spread-breaker.ts';
import { SlotGate } from './slot-gate.ts';
import type { UpstreamClient, UpstreamCredentials } from '../client/types.ts';
import { callerOf } from '../caller.ts';
import type { WireOperation } from '../client/wire.ts';
import { OPERATION_LIST, wrapOperations, type UpstreamOperation } from '../operations.ts';

export type { BreakerState } from './origin-breaker.ts';
export { GUARD_REJECTIONS } from './resilience-options.ts';
export type { GuardRejection, ResilienceOptions, ResilientClient } from './resilience-options.ts';

/** Wraps `client`; see the module comment. */
export function withResilience(client: UpstreamClient, options: ResilienceOptions): ResilientClient {
  const { readRetries, retryBudget: budget } = options;
  const breakers = createOriginBreakers(options);
  // Errors this guard made itself: they say nothing about the upstream's health.
  const own = new WeakSet<object>();

  function refuse(operation: WireOperation, reason: GuardRejection): UpstreamError {
    options.onRejected?.(operation, reason);
    const error = new UpstreamError(reason === 'deadline' ? 'timeout' : reason, REFUSALS[reason], {
      operation,
    });
    own.add(error);
    return error;
  }

  const slots = new SlotGate(options.maxConcurrentCalls, options.maxQueuedCalls);
  const attempt = createAttempt({ options, breakers, refuse, own, slots });

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
      // A login's username is the caller's to invent and its network cheap to vary: all logins are one source,
      // and together hold one session's share of the bulkhead, so a login flood leaves the reads their slots.
      // Known devices' logins hold a share of their own: a flood of unknown clients' logins never fills it.
      const share = args[2] === 'known' ? KNOWN_LOGINS_SHARE : LOGINS_SHARE;
      return attempt(operation, call, share, ANONYMOUS_SOURCE).then(succeeded);
    }
    // Whose share and vote: the account (`caller.ts`), not the token or the name it logged in with.
    const session = callerOf(args[0] as UpstreamCredentials);
    const first = attempt(operation, call, session, session);
    // Writes: one attempt, never retried (a retried save could create the object twice).
    if (operation.access === 'write') return first.then(succeeded);
    return first.then(succeeded, (error: unknown) => retry(operation, session, call, error));
  });

  return {
    ...guarded,
    close: () => client.close(),
    breakerStates: () => breakers.states(),
    isFailingFast: () => breakers.isFailingFast(),
    bulkhead: () => ({ inUse: slots.taken, queued: slots.queued }),
  };
}

/** The share all logins take together (a key no user's `callerOf` can be). */
const LOGINS_SHARE = '\u0000logins';
const KNOWN_LOGINS_SHARE = '\u0000known-logins';

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
