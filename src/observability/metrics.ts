/**
 * Prometheus metrics (prom-client), in a registry per gateway (tests run several in one process):
 * GraphQL operations and upstream calls by name and outcome with duration histograms, loader batch sizes,
 * breaker states, limiter blocks, guard refusals and retries, and the process metrics.
 *
 * Label values come from a bounded set: the operation name is the client's choice, so only the first
 * {@link MAX_OPERATION_NAMES} distinct valid names get their own series; the rest count as `other`.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LoginLimit } from '../auth/login-limiter.ts';
import type { BreakerState, GuardRejection } from '../upstream/resilience.ts';
import type { UpstreamCallEvent } from '../upstream/types.ts';
import { createChildCache } from './child-cache.ts';

/** Distinct operation names tracked before the rest are labelled `other`. */
export const MAX_OPERATION_NAMES = 200;

/** prom-client's default gauges whose `_total` suffix breaks Prometheus' naming rules. */
const MISNAMED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };

/** One finished GraphQL request. */
export interface OperationObservation {
  /** The operation's name as sent; `undefined` for an anonymous or unparsed operation. */
  name: string | undefined;
  /** `query`, `mutation`, `subscription`, or `unknown` when it never parsed. */
  type: string;
  /** `ok`, or the first error's code. */
  outcome: string;
  seconds: number;
}

/** The gateway's metrics. */
export interface GatewayMetrics {
  registry: Registry;
  observeOperation(observation: OperationObservation): void;
  observeUpstreamCall(event: UpstreamCallEvent): void;
  observeLoaderBatch(loader: string, size: number): void;
  setBreakerState(origin: string, state: BreakerState): void;
  countLoginBlock(limit: LoginLimit): void;
  countGuardRejection(operation: string, reason: GuardRejection): void;
  countRetry(operation: string, allowed: boolean): void;
}

/** Creates the registry and every metric. */
export function createMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's totals of the by-type gauges are gauges named `_total`, which Prometheus reserves for
  // counters (`promtool check metrics` exits 3 on them): dropped, `sum(nodejs_active_handles)` is the same.
  for (const name of MISNAMED_DEFAULT_GAUGES) registry.removeSingleMetric(name);
  const registers = [registry];

  // Recorded on every request: each label combination's child (`labels(...)`) is made once and kept, so
  // an observation skips prom-client's label-object checks (see child-cache.ts).
  const operations = new Counter({
    name: 'gateway_graphql_operations_total',
    help: 'GraphQL requests by operation name, type and outcome (ok or the first error code).',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers,
  });
  const operationSeconds = new Histogram({
    name: 'gateway_graphql_operation_duration_seconds',
    help: 'Time from receiving a GraphQL request to sending its response.',
    labelNames: ['operation', 'type', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers,
  });
  const upstreamCalls = new Counter({
    name: 'gateway_upstream_calls_total',
    help: 'Upstream HTTP calls (each attempt) by operation and outcome (ok or the failure kind).',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });
  const upstreamSeconds = new Histogram({
    name: 'gateway_upstream_call_duration_seconds',
    help: 'Duration of one upstream call attempt.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const batchSizes = new Histogram({
    name: 'gateway_loader_batch_size',
    help: 'Keys per DataLoader batch (one upstream call each).',
    labelNames: ['loader'] as const,
    buckets: [1, 2, 5, 10, 20, 50, 100, 200],
    registers,
  });
  const operationChildren = createChildCache((...values: string[]) => ({
    count: operations.labels(...values),
    seconds: operationSeconds.labels(...values),
  }));
  const upstreamChildren = createChildCache((...values: string[]) => ({
    count: upstreamCalls.labels(...values),
    seconds: upstreamSeconds.labels(...values),
  }));
  const batchChildren = createChildCache((loader: string) => batchSizes.labels(loader));
  const breaker = new Gauge({
    name: 'gateway_upstream_breaker_state',
    help: 'Circuit breaker per upstream origin: 0 closed, 1 half-open, 2 open.',
    labelNames: ['origin'] as const,
    registers,
  });
  const loginBlocks = new Counter({
    name: 'gateway_login_blocks_total',
    help: 'Blocks started by the login limiter, by counter (device, user_ip, user, ip).',
    labelNames: ['limit'] as const,
    registers,
  });
  const rejections = new Counter({
    name: 'gateway_upstream_rejections_total',
    help: 'Upstream calls refused or cut by the gateway itself (circuit_open, overloaded, session_overloaded, call_budget, deadline).',
    labelNames: ['operation', 'reason'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'gateway_upstream_retries_total',
    help: 'Read retries wanted after a failure, by whether the retry budget allowed them.',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });

  const names = new Set<string>();
  function operationLabel(name: string | undefined): string {
    if (name === undefined || name === '') return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'other';
    if (names.has(name)) return name;
    if (names.size >= MAX_OPERATION_NAMES) return 'other';
    names.add(name);
    return name;
  }

  return {
    registry,
    observeOperation({ name, type, outcome, seconds }) {
      const children = operationChildren(operationLabel(name), type, outcome);
      children.count.inc();
      children.seconds.observe(seconds);
    },
    observeUpstreamCall({ operation, outcome, durationMillis }) {
      const children = upstreamChildren(operation, outcome);
      children.count.inc();
      children.seconds.observe(durationMillis / 1000);
    },
    observeLoaderBatch(loader, size) {
      batchChildren(loader).observe(size);
    },
    setBreakerState(origin, state) {
      breaker.set({ origin }, BREAKER_VALUES[state]);
    },
    countLoginBlock(limit) {
      loginBlocks.inc({ limit });
    },
    countGuardRejection(operation, reason) {
      rejections.inc({ operation, reason });
    },
    countRetry(operation, allowed) {
      retries.inc({ operation, outcome: allowed ? 'allowed' : 'denied' });
    },
  };
}
