/**
 * The `--features` mode's peers: P4 started with one feature neutralised (`P4-log`, `P4-metrics`, …), by
 * swapping a module of `src/` for a no-op stand-in in `stand-ins/` at module resolution (`register.ts`,
 * loaded with `--import`). Bench-only: nothing in `src/` knows, and no production setting turns a feature
 * off. Which module each feature swaps is written in ONE place, {@link NEUTRALISED_MODULES}: when `src/`
 * moves, fix the paths here (the stand-ins' `typeof import(...)` types fail the type check until then).
 */
import { fileURLToPath } from 'node:url';

/** What each feature is, as the cost table names it. */
export const FEATURES = {
  none: 'nothing: an identical copy of P4 under the same hook (the noise of this table)',
  log: 'the access log: request hooks, request scope (AsyncLocalStorage), log plugin and the log line',
  metrics: 'metrics (prom-client registry, default collectors, per-request counters and histograms)',
  coalescing: 'coalescing of identical in-flight reads',
  resilience: 'resilience (breakers, bulkhead, retry budget, call budget, deadline)',
  loader: 'the DataLoader path for a single id (a direct getAll instead)',
  limits: 'limits (upstream call estimate, Armor validation rules and parser limits)',
  fastify: 'the Fastify integration package (a plain route calling executeHTTPGraphQLRequest instead)',
  cache:
    'the response cache (CACHE=off: every read goes upstream; on W2–W4, whose types declare no policy, what a miss costs)',
  all: 'all of the above at once',
} as const;

/** A feature the mode can neutralise. */
export type FeatureId = keyof typeof FEATURES;
/** Feature ids, in the order the table shows them. */
export const FEATURE_IDS = Object.keys(FEATURES) as FeatureId[];
/** The peer that is P4 without one feature. */
export type FeaturePeerId = `P4-${FeatureId}`;

/**
 * THE table: per feature, which module is replaced by which stand-in. Keys are paths from the repository
 * root (`src/…`) or bare package specifiers; values are files of `stand-ins/`.
 */
export const NEUTRALISED_MODULES: Record<Exclude<FeatureId, 'all'>, Record<string, string>> = {
  none: {},
  log: {
    'src/observability/request-log.ts': 'request-log.ts',
    'src/observability/request-log-plugin.ts': 'request-log-plugin.ts',
  },
  metrics: { 'src/observability/metrics.ts': 'metrics.ts' },
  coalescing: { 'src/upstream/batching/coalesce.ts': 'coalesce.ts' },
  resilience: { 'src/upstream/resilience/resilience.ts': 'resilience.ts' },
  loader: { 'src/upstream/batching/loaders.ts': 'loaders.ts' },
  limits: {
    'src/limits/armor.ts': 'armor.ts',
    'src/limits/upstream-call-limit.ts': 'upstream-call-limit.ts',
  },
  fastify: { '@as-integrations/fastify': 'fastify-integration.ts' },
  // A setting turns it off (FEATURE_SETTINGS): nothing to swap.
  cache: {},
};

/** Features a production setting turns off: the partner is started with these settings instead. */
export const FEATURE_SETTINGS: Partial<Record<Exclude<FeatureId, 'all'>, Record<string, string>>> = {
  cache: { CACHE: 'off' },
};

/** The feature a peer neutralises, or `undefined` for every other peer. */
export function featureOf(id: string): FeatureId | undefined {
  if (!id.startsWith('P4-')) return undefined;
  const feature = id.slice('P4-'.length);
  return feature in FEATURES ? (feature as FeatureId) : undefined;
}

/** Whether `id` is a feature-cost copy of P4. */
export function isFeaturePeer(id: string): id is FeaturePeerId {
  return featureOf(id) !== undefined;
}

/** The redirects of a feature: absolute module URL (or bare specifier) → stand-in URL. */
export function redirectsOf(feature: FeatureId): Record<string, string> {
  const root = new URL('../../', import.meta.url);
  const standIns = new URL('stand-ins/', import.meta.url);
  const tables = feature === 'all' ? Object.values(NEUTRALISED_MODULES) : [NEUTRALISED_MODULES[feature]];
  const redirects: Record<string, string> = {};
  for (const table of tables) {
    for (const [from, to] of Object.entries(table)) {
      const key = from.startsWith('src/') ? new URL(from, root).href : from;
      redirects[key] = new URL(to, standIns).href;
    }
  }
  return redirects;
}

/** The settings that turn `feature` off (`all`: every one of them). */
function settingsOf(feature: FeatureId): Record<string, string> {
  if (feature !== 'all') return FEATURE_SETTINGS[feature] ?? {};
  const settings: Record<string, string> = {};
  for (const each of Object.values(FEATURE_SETTINGS)) Object.assign(settings, each);
  return settings;
}

/** How to start the gateway without `feature`: the `--import` of `register.ts` and its environment. */
export function featureStartOptions(feature: FeatureId): {
  nodeOptions: string[];
  env: Record<string, string>;
} {
  return {
    nodeOptions: [`--import=${fileURLToPath(new URL('register.ts', import.meta.url))}`],
    env: {
      BENCH_NEUTRALISE: JSON.stringify(redirectsOf(feature)),
      ...settingsOf(feature),
    },
  };
}
