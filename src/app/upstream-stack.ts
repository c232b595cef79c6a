/**
 * The gateway's upstream stack, from the settings: the HTTP client (deadlines, no retries of its own), the
 * resilience layer (breakers, bulkhead, retry budget, request deadline), metrics and per-request counts.
 */
import type { Dispatcher } from 'undici';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import type { UpstreamFailureLog } from '../observability/upstream-failure-log.ts';
import { withTracing } from '../observability/tracing/traced-client.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
import { createUpstreamClient } from '../upstream/client/client.ts';
import { clientSettingsOf } from '../upstream/client/client-settings.ts';
import { withResilience, type ResilientClient } from '../upstream/resilience/resilience.ts';
import { createRetryBudget } from '../upstream/resilience/retry-budget.ts';
import type { UpstreamUrls } from '../upstream/client/types.ts';
import { breakerNamesOf } from '../upstream/operations.ts';

/** Why the guard refused a call, in the failure log's words. */
const REFUSAL_DETAIL = {
  circuit_open: 'not sent: the circuit breaker is open',
  overloaded: 'not sent: the upstream bulkhead and its queue are full',
} as const;

/** What {@link createUpstreamStack} needs besides the settings. */
export interface UpstreamStackOptions {
  config: GatewayConfig;
  /** Where the upstream is (`upstreamUrlsOf(config)`). */
  urls: UpstreamUrls;
  metrics: GatewayMetrics;
  scopes: RequestScopes;
  /** Where failed and refused calls are logged (summed up per operation and kind). */
  failures?: UpstreamFailureLog | undefined;
  /** Told when a breaker leaves (or returns to) `closed`. */
  onBreakerStateChange?: (origin: string, state: string) => void;
  dispatcher?: Dispatcher | undefined;
  /** When tracing is on: a span per upstream call and one per HTTP attempt, under the request's trace. */
  tracing?: GatewayTracing | undefined;
}

/** Builds the client and wraps it; the answer is what resolvers (through coalescing) call. */
export function createUpstreamStack(options: UpstreamStackOptions): ResilientClient {
  const { config, urls, metrics, scopes } = options;
  const client = createUpstreamClient({
    ...urls,
    ...clientSettingsOf(config),
    onCall(event) {
      metrics.observeUpstreamCall(event);
      if (event.outcome !== 'ok') {
        options.failures?.failed({ operation: event.operation, kind: event.outcome, detail: event.detail });
      }
      const scope = scopes.current();
      if (scope) {
        scope.upstreamCalls += 1;
        scope.upstreamMillis += event.durationMillis;
      }
    },
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.tracing ? { onAttempt: options.tracing.upstreamAttempt } : {}),
  });
  const settings = config.resilience;
  // Breakers by the settings' base names, not addresses: their names reach `/readyz` and `/metrics`.
  const breakerNames = breakerNamesOf(urls);
  const resilient = withResilience(client, {
    ...settings,
    originOf: (operation) => breakerNames[operation],
    retryBudget: createRetryBudget({ ratio: settings.retryBudgetPercent / 100 }),
    // No attempt outlives the client's call deadline: a farther request deadline needs no timer.
    attemptTimeoutMillis: config.upstreamCallTimeoutMillis,
    takeCall: () => {
      const scope = scopes.current();
      if (scope === undefined) return true;
      scope.callsStarted += 1;
      return scope.callsStarted <= config.maxUpstreamCallsPerRequest;
    },
    remainingMillis: () => scopes.remainingMillis(),
    onBreakerStateChange: (origin, state) => {
      metrics.setBreakerState(origin, state);
      options.onBreakerStateChange?.(origin, state);
    },
    onRejected: (operation, reason) => {
      metrics.countGuardRejection(operation, reason);
      // The guard's own refusals that are on-call's: a breaker open, a full bulkhead (not a session's share).
      if (reason === 'circuit_open' || reason === 'overloaded') {
        options.failures?.failed({ operation, kind: reason, detail: REFUSAL_DETAIL[reason] });
      }
    },
    onRetry: (operation, allowed) => {
      metrics.countRetry(operation, allowed);
      if (allowed) options.tracing?.countRetry();
    },
  });
  // Every breaker is in `/metrics` from the start, closed: an alert on it needs no first transition.
  for (const origin of new Set(Object.values(breakerNames))) metrics.setBreakerState(origin, 'closed');
  metrics.trackCapacity('upstream_slots', () => resilient.bulkhead().inUse, settings.maxConcurrentCalls);
  metrics.trackCapacity('upstream_queue', () => resilient.bulkhead().queued, settings.maxQueuedCalls);
  metrics.trackCapacity(
    'upstream_answer_bytes',
    () => client.answerBytesHeld(),
    settings.maxInflightAnswerBytes,
  );
  const stack = options.tracing
    ? withTracing(resilient, options.tracing, () => scopes.current()?.trace)
    : resilient;
  // What text the upstream gives back is the client's to know; the wrappers only route the calls.
  stack.mayAnswerLossyText = () => client.mayAnswerLossyText();
  return stack;
}
