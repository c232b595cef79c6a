/**
 * Prometheus metrics (prom-client), in a registry per gateway (tests run several in one process):
 * GraphQL operations and upstream calls by name and outcome with duration histograms, loader batch sizes,
 * breaker states, limiter blocks, guard refusals and retries, and the process metrics.
 *
 * Label values come from sets the server bounds: the operation name is the client's choice, so only names
 * that trusted documents or accepted users vouched for get their own series (`operation-names.ts`); the rest
 * count as `other`. Outcomes are codes the gateway writes, kept to {@link MAX_OUTCOMES} distinct values, and
 * each outcome says whose fault it is (`blame`, from `errors/blame.ts`: four values, and `none` when ok).
 *
 * For on-call: every counter whose label values are known at start (login blocks, guard refusals, retries,
 * upstream calls by operation and outcome) is present at 0 from the first scrape, so `rate()` and `increase()`
 * see the first failure; the saturation gauges (`capacity-gauges.ts`), `gateway_draining`,
 * `gateway_build_info` and, with Redis, `gateway_redis_up` say what a replica is and how close to its caps.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LOGIN_LIMITS, type LoginLimit } from '../auth/login-limiter.ts';
import { BLAMES, UPSTREAM_KIND_CODE, blameOfCode, type UpstreamErrorKind } from '../errors/blame.ts';
import {
  GUARD_REJECTIONS,
  type BreakerState,
  type GuardRejection,
} from '../upstream/resilience/resilience.ts';
import { OPERATION_LIST } from '../upstream/operations.ts';
import type { UpstreamCallEvent } from '../upstream/client/types.ts';
import { registerCapacityGauges, type TrackCapacity } from './capacity-gauges.ts';
import { createChildCache } from './child-cache.ts';
import {
  createOperationNames,
  type OperationNameSource,
  type OperationNamesOptions,
} from './operation-names.ts';

export { MAX_OPERATION_NAMES, MAX_OPERATION_NAMES_PER_USER } from './operation-names.ts';
export type { OperationNameSource } from './operation-names.ts';
export type { CappedResource } from './capacity-gauges.ts';

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
/** The `blame` label of an outcome that is no failure. */
const NO_BLAME = 'none';
const BLAME_LABELS: ReadonlySet<string> = new Set([...BLAMES, NO_BLAME]);

// The known label values: each list is declared beside its type (the type is derived from it), and the wire
// operations are those of the one list of upstream operations.
const WIRE_OPERATIONS = OPERATION_LIST.map((operation) => operation.wire);
const UPSTREAM_KINDS = Object.keys(UPSTREAM_KIND_CODE) as UpstreamErrorKind[];

/** The blame of an upstream call's outcome: `none` when ok, else its kind's (`errors/blame.ts`). */
function blameOfUpstreamOutcome(outcome: string): string {
  if (!Object.hasOwn(UPSTREAM_KIND_CODE, outcome)) return NO_BLAME;
  return blameOfCode(UPSTREAM_KIND_CODE[outcome as UpstreamErrorKind], outcome);
}

/** What `gateway_build_info` says. */
export interface BuildInfo {
  /** The package's version (`package.json`). */
  version: string;
  /** `GIT_COMMIT`, set at image build; `unknown` without it. */
  commit: string;
}

/** One finished GraphQL request. */
export interface OperationObservation {
  /** The operation's name as sent; `undefined` for an anonymous or unparsed operation. */
  name: string | undefined;
  /** `query`, `mutation`, `subscription`, or `unknown` when it never parsed. */
  type: string;
  /** `ok`, or the first error's code. */
  outcome: string;
  /** Whose fault the request's worst failure is (`errors/blame.ts`); absent or `none` when it succeeded. */
  blame?: string | undefined;
  seconds: number;
  /** The session's organization; `undefined` without a session or without one. */
  organization?: string | undefined;
}

/** What the Redis gauges read, at each scrape. */
export interface RedisReadings {
  /** Redis is used and answers (its breaker closed, its connection ready). */
  up(): boolean;
  /** Redis answers but refuses writes: out of memory under `noeviction`. */
  full(): boolean;
  /** Times Redis was bypassed since start (its breaker opened). */
  bypasses(): number;
  /** Commands Redis did not serve since start (bypassed, timed out, unreachable). */
  fallbacks(): number;
  /** Revocations this replica holds that Redis has not taken yet. */
  unsharedRevocations(): number;
}

/** The gateway's metrics. */
/** What the response cache's metrics read (`trackCache`). */
export interface CacheReadings {
  /** The cached object types. */
  objectTypes: readonly string[];
  events: readonly string[];
  /** Characters held per object type. */
  bytesByType(): ReadonlyMap<string, number>;
}

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
  /** Where a capped resource's use is read from at each scrape, and its cap (`capacity-gauges.ts`). */
  trackCapacity: TrackCapacity;
  /** Where `gateway_draining` reads whether the gateway is draining. */
  trackDraining(read: () => boolean): void;
  /**
   * Makes `gateway_redis_up`, `gateway_redis_full`, `gateway_redis_bypasses_total` and
   * `gateway_session_revocations_unshared` (only with `REDIS_URL`).
   */
  trackRedis(read: RedisReadings): void;
  countGuardRejection(operation: string, reason: GuardRejection): void;
  countRetry(operation: string, allowed: boolean): void;
  /** One read that answered a record of another organization than the session's (never served). */
  countTenantMismatch(operation: string): void;
  /** A promise rejected with nobody listening (a bug), logged instead of ending the process. */
  countUnhandledRejection(): void;
  /**
   * The response cache's counters and gauge (`src/cache/`), by object type: only the types that declare a
   * policy, a set the configuration bounds, ever become a label.
   */
  trackCache(read: CacheReadings): void;
  /** Counts one response cache event of `objectType` (after `trackCache`; a type it was not told of is not counted). */
  countCacheEvent(objectType: string, event: string): void;
}

/** Options of {@link createMetrics}. */
export interface MetricsOptions extends OperationNamesOptions {
  /** `gateway_build_info`'s labels; default version `unknown`, commit `unknown` (tests). */
  build?: BuildInfo | undefined;
  /**
   * The organizations a session may belong to (`ALLOWED_ORGANIZATION_CODES`). Listed, they bound the
   * `organization` label of `gateway_graphql_operations_by_organization_total`; empty, that metric is not
   * made (any code is possible, so the label would not be bounded).
   */
  organizations?: readonly string[] | undefined;
}

/** Creates the registry and every metric; `options` bound the operation names (defaults in `operation-names.ts`). */
export function createMetrics(options: MetricsOptions = {}): GatewayMetrics {
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
    help: 'GraphQL requests by operation name (vouched-for names; other, or anonymous when unnamed), type, outcome (ok or the first error code) and blame (caller, upstream_refusal, upstream_health, gateway; none when ok).',
    labelNames: ['operation', 'type', 'outcome', 'blame'] as const,
    registers,
  });
  const operationSeconds = new Histogram({
    name: 'gateway_graphql_operation_duration_seconds',
    help: 'Time from receiving a GraphQL request to sending its response.',
    labelNames: ['operation', 'type', 'outcome', 'blame'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers,
  });
  const upstreamCalls = new Counter({
    name: 'gateway_upstream_calls_total',
    help: 'Upstream HTTP calls (each attempt) by operation, outcome (ok or the failure kind) and blame (none when ok).',
    labelNames: ['operation', 'outcome', 'blame'] as const,
    registers,
  });
  const upstreamSeconds = new Histogram({
    name: 'gateway_upstream_call_duration_seconds',
    help: 'Duration of one upstream call attempt.',
    labelNames: ['operation', 'outcome', 'blame'] as const,
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
  // The blame follows from the outcome (mostly), so it adds few combinations to the bound.
  const operationChildren = createChildCache(
    (...values: [string, string, string, string]) => ({
      count: operations.labels(...values),
      seconds: operationSeconds.labels(...values),
    }),
    {
      maxEntries: MAX_OPERATION_SERIES,
      fold: (_operation, type, outcome, blame): [string, string, string, string] => [
        'other',
        type,
        outcome,
        blame,
      ],
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
  const byOrganization = createOrganizationCounter(registry, options.organizations ?? []);
  const unhandledRejections = new Counter({
    name: 'gateway_unhandled_rejections_total',
    help: 'Promises rejected with nobody listening (a bug of the gateway or a package): logged at error level; the process keeps serving.',
    registers,
  });
  const trackCapacity = registerCapacityGauges(registry);
  let draining: () => boolean = () => false;
  /** A gauge without labels whose value `read()` gives at each scrape. */
  const readGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  readGauge(
    'gateway_draining',
    '1 from SIGTERM on (readiness fails, connections close after their answer), else 0.',
    () => (draining() ? 1 : 0),
  );
  const build = options.build ?? { version: 'unknown', commit: 'unknown' };
  new Gauge({
    name: 'gateway_build_info',
    help: 'Always 1: the running version (package.json) and the commit the image was built from (GIT_COMMIT).',
    labelNames: ['version', 'commit'] as const,
    registers,
  }).set({ version: build.version, commit: build.commit }, 1);
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

  const tenantMismatches = new Counter({
    name: 'gateway_upstream_tenant_mismatches_total',
    help: "Upstream reads that answered a record of another organization than the session's (not served: a security event).",
    labelNames: ['operation'] as const,
    registers,
  });
  // Present at 0 from the start (a counter that appears with its first event hides that event from rate()).
  for (const operation of ['getObject', 'getAll']) tenantMismatches.inc({ operation }, 0);
  for (const limit of LOGIN_LIMITS) loginBlocks.inc({ limit }, 0);
  for (const operation of WIRE_OPERATIONS) {
    for (const reason of GUARD_REJECTIONS) rejections.inc({ operation, reason }, 0);
    for (const outcome of ['allowed', 'denied']) retries.inc({ operation, outcome }, 0);
    for (const outcome of ['ok', ...UPSTREAM_KINDS]) {
      upstreamCalls.inc({ operation, outcome, blame: blameOfUpstreamOutcome(outcome) }, 0);
    }
  }

  let cacheEvent: (objectType: string, event: string) => void = () => undefined;
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
    observeOperation({ name, type, outcome, blame, seconds, organization }) {
      const blameLabel = blame !== undefined && BLAME_LABELS.has(blame) ? blame : NO_BLAME;
      const children = operationChildren(
        names.label(name),
        OPERATION_TYPES.has(type) ? type : 'unknown',
        outcomeLabel(outcome),
        blameLabel,
      );
      children.count.inc();
      children.seconds.observe(seconds);
      byOrganization?.(organization, blameLabel).inc();
    },
    observeUpstreamCall({ operation, outcome, durationMillis }) {
      const children = upstreamChildren(operation, outcome, blameOfUpstreamOutcome(outcome));
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
    countUnhandledRejection() {
      unhandledRejections.inc();
    },
    countTenantMismatch(operation) {
      tenantMismatches.inc({ operation: operation === 'getObject' ? operation : 'getAll' });
    },
    trackCapacity,
    trackDraining(read) {
      draining = read;
    },
    trackRedis(read) {
      readGauge(
        'gateway_redis_up',
        'Whether this replica uses Redis and it answers: 0 while its breaker bypasses Redis or the connection is down.',
        () => (read.up() ? 1 : 0),
      );
      new Counter({
        name: 'gateway_redis_bypasses_total',
        help: 'Times this replica bypassed Redis (its commands failed in a row): logins counted and logouts listed on its own meanwhile.',
        registers,
        collect() {
          this.reset();
          this.inc(read.bypasses());
        },
      });
      new Counter({
        name: 'gateway_redis_fallbacks_total',
        help: 'Redis commands this replica answered from its own memory (bypassed, timed out or unreachable): shares counted apart meanwhile.',
        registers,
        collect() {
          this.reset();
          this.inc(read.fallbacks());
        },
      });
      readGauge(
        'gateway_redis_full',
        'Whether Redis answers but refuses writes (out of memory under noeviction): up, yet logouts are not shared.',
        () => (read.full() ? 1 : 0),
      );
      readGauge(
        'gateway_session_revocations_unshared',
        'Logouts this replica holds that Redis has not taken yet (away, bypassed or full); written when it takes writes again.',
        () => read.unsharedRevocations(),
      );
    },
    trackCache(read) {
      const types = new Set(read.objectTypes);
      const events = new Counter({
        name: 'gateway_cache_events_total',
        help: 'Response cache events by object type: hit, miss, stale (served past maxAge while the upstream failed), evicted, refused (a share full), bypassed (versions unreadable: Redis away).',
        labelNames: ['object_type', 'event'] as const,
        registers,
      });
      for (const objectType of types)
        for (const event of read.events) events.inc({ object_type: objectType, event }, 0);
      new Gauge({
        name: 'gateway_cache_bytes',
        help: "Characters of JSON the response cache holds in this replica's memory, by object type.",
        labelNames: ['object_type'] as const,
        registers,
        collect() {
          this.reset();
          const held = read.bytesByType();
          for (const objectType of types) this.set({ object_type: objectType }, held.get(objectType) ?? 0);
        },
      });
      cacheEvent = (objectType, event) => {
        if (types.has(objectType)) events.inc({ object_type: objectType, event });
      };
    },
    countCacheEvent(objectType, event) {
      cacheEvent(objectType, event);
    },
    countGuardRejection(operation, reason) {
      rejections.inc({ operation, reason });
    },
    countRetry(operation, allowed) {
      retries.inc({ operation, outcome: allowed ? 'allowed' : 'denied' });
    },
  };
}

/**
 * GraphQL requests by the session's organization and blame, only where the organizations are listed (so
 * the series are bounded: listed codes, `none` without a session or organization; a code outside the list
 * cannot open a session). Each child is made once.
 */
function createOrganizationCounter(
  registry: Registry,
  organizations: readonly string[],
): ((organization: string | undefined, blame: string) => { inc(): void }) | undefined {
  if (organizations.length === 0) return undefined;
  const counter = new Counter({
    name: 'gateway_graphql_operations_by_organization_total',
    help: "GraphQL requests by the session's organization (ALLOWED_ORGANIZATION_CODES; none without one) and blame (none when ok).",
    labelNames: ['organization', 'blame'] as const,
    registers: [registry],
  });
  const listed = new Set(organizations);
  const children = createChildCache((organization: string, blame: string) =>
    counter.labels(organization, blame),
  );
  return (organization, blame) =>
    children(organization !== undefined && listed.has(organization) ? organization : 'none', blame);
}
