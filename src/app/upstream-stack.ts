/**
 * The gateway's upstream stack, from the settings: the HTTP client (deadlines, no retries of its own), the
 * resilience layer (breakers, bulkhead, retry budget, request deadline), metrics and per-request counts.
 */
import type { Dispatcher } from 'undici';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import { withTracing } from '../observability/tracing/traced-client.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
import { createUpstreamClient } from '../upstream/client/client.ts';
import { clientSettingsOf } from '../upstream/client/client-settings.ts';
import { withResilience, type ResilientClient } from '../upstream/resilience/resilience.ts';
import { createRetryBudget } from '../upstream/resilience/retry-budget.ts';
import type { UpstreamUrls } from '../upstream/client/types.ts';
import { breakerNamesOf } from '../upstream/operations.ts';

/** What {@link createUpstreamStack} needs besides the settings. */
export interface UpstreamStackOptions {
  config: GatewayConfig;
  /** Where the upstream is (`upstreamUrlsOf(config)`). */
  urls: UpstreamUrls;
  metrics: GatewayMetrics;
  scopes: RequestScopes;
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
    },
    onRetry: (operation, allowed) => {
      metrics.countRetry(operation, allowed);
      if (allowed) options.tracing?.countRetry();
    },
  });
  return options.tracing ? withTracing(resilient, options.tracing, () => scopes.current()?.trace) : resilient;
}
