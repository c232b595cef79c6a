/**
 * Prometheus metrics (prom-client), in a registry per gateway (tests run several in one process):
 * GraphQL operations and upstream calls by name and outcome with duration histograms, loader batch sizes,
 * breaker states, limiter blocks, guard refusals and retries, and the process metrics.
 *
 * Label values come from sets the server bounds: the operation name is the client's choice, so only names
 * that trusted documents or accepted users vouched for get their own series (`operation-names.ts`); the rest
 * count as `other`. Outcomes are codes the gateway writes, kept to {@link MAX_OUTCOMES} distinct values.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LoginLimit } from '../auth/login-limiter.ts';
import type { BreakerState, GuardRejection } from '../upstream/resilience/resilience.ts';
import type { UpstreamCallEvent } from '../upstream/client/types.ts';
import { createChildCache } from './child-cache.ts';
import {
  createOperationNames,
  type OperationNameSource,
  type OperationNamesOptions,
} from './operation-names.ts';

export { MAX_OPERATION_NAMES, MAX_OPERATION_NAMES_PER_USER } from './operation-names.ts';
export type { OperationNameSource } from './operation-names.ts';

/**
 * Distinct outcomes (`ok`, `HTTP_<status>` and the error codes the gateway writes, a few dozen in all) kept
 * before the rest count as `other`: a bound should a code ever carry something a caller chose.
 */
export const MAX_OUTCOMES = 64;

/**
 * Combinations of operation, type and outcome with series of their own; past them a new combination counts
 * under `operation="other"` (at most 4 types × {@link MAX_OUTCOMES} more). Each is a counter and a
 * 12-bucket histogram: this bounds `/metrics` at about 15,000 lines for the operations.
 */
export const MAX_OPERATION_SERIES = 1000;

/** prom-client's default gauges whose `_total` suffix breaks Prometheus' naming rules. */
const MISNAMED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

const OUTCOME = /^(?:ok|HTTP_[1-5][0-9][0-9]|[A-Z][A-Z0-9_]{0,63})$/;
const OPERATION_TYPES: ReadonlySet<string> = new Set(['query', 'mutation', 'subscription', 'unknown']);
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

/** What the Redis gauges read, at each scrape. */
export interface RedisReadings {
  /** Redis is used and answers (its breaker closed, its connection ready). */
  up(): boolean;
  /** Revocations this replica holds that Redis has not taken yet. */
  unsharedRevocations(): number;
}

/** The gateway's metrics. */
export interface GatewayMetrics {
  registry: Registry;
  /**
   * Lets operations named `name` count under their own name (see `operation-names.ts`); call only for an
   * operation that passed validation, with who vouches for it.
   */
  admitOperationName(name: string, source: OperationNameSource): void;
  observeOperation(observation: OperationObservation): void;
  observeUpstreamCall(event: UpstreamCallEvent): void;
  observeLoaderBatch(loader: string, size: number): void;
  setBreakerState(origin: string, state: BreakerState): void;
  countLoginBlock(limit: LoginLimit): void;
  /** Where `gateway_login_tracked_counters` reads the login limiter's count of counters from. */
  trackLoginCounters(read: () => number): void;
  /** Makes `gateway_redis_up` and `gateway_session_revocations_unshared` (only with `REDIS_URL`). */
  trackRedis(read: RedisReadings): void;
  countGuardRejection(operation: string, reason: GuardRejection): void;
  countRetry(operation: string, allowed: boolean): void;
}

/** Creates the registry and every metric; `options` bound the operation names (defaults in `operation-names.ts`). */
export function createMetrics(options: OperationNamesOptions = {}): GatewayMetrics {
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
    help: 'GraphQL requests by operation name (vouched-for names; other, or anonymous when unnamed), type and outcome (ok or the first error code).',
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
  const operationChildren = createChildCache(
    (...values: [string, string, string]) => ({
      count: operations.labels(...values),
      seconds: operationSeconds.labels(...values),
    }),
    {
      maxEntries: MAX_OPERATION_SERIES,
      fold: (_operation, type, outcome): [string, string, string] => ['other', type, outcome],
    },
  );
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
  let trackedLoginCounters: () => number = () => 0;
  new Gauge({
    name: 'gateway_login_tracked_counters',
    help: 'Failed-login counters this process holds, all kinds together (at most LOGIN_MAX_TRACKED_COUNTERS plus devices).',
    registers,
    collect() {
      this.set(trackedLoginCounters());
    },
  });
  const loginBlocks = new Counter({
    name: 'gateway_login_blocks_total',
    help: 'Blocks started by the login limiter, by counter (device, user_ip, user, ip, overflow, overflow_ip).',
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

  const names = createOperationNames(options);
  const outcomes = new Set<string>();
  function outcomeLabel(outcome: string): string {
    if (outcomes.has(outcome)) return outcome;
    if (outcomes.size >= MAX_OUTCOMES || !OUTCOME.test(outcome)) return 'other';
    outcomes.add(outcome);
    return outcome;
  }

  return {
    registry,
    admitOperationName(name, source) {
      names.admit(name, source);
    },
    observeOperation({ name, type, outcome, seconds }) {
      const children = operationChildren(
        names.label(name),
        OPERATION_TYPES.has(type) ? type : 'unknown',
        outcomeLabel(outcome),
      );
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
    trackLoginCounters(read) {
      trackedLoginCounters = read;
    },
    trackRedis(read) {
      new Gauge({
        name: 'gateway_redis_up',
        help: 'Whether this replica uses Redis and it answers: 0 while its breaker bypasses Redis or the connection is down.',
        registers,
        collect() {
          this.set(read.up() ? 1 : 0);
        },
      });
      new Gauge({
        name: 'gateway_session_revocations_unshared',
        help: 'Logouts this replica holds that Redis has not taken yet (away, bypassed or full); written when it takes writes again.',
        registers,
        collect() {
          this.set(read.unsharedRevocations());
        },
      });
    },
    countGuardRejection(operation, reason) {
      rejections.inc({ operation, reason });
    },
    countRetry(operation, allowed) {
      retries.inc({ operation, outcome: allowed ? 'allowed' : 'denied' });
    },
  };
}
