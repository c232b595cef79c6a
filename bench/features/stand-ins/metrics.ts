/** Stand-in (feature `metrics`): an empty registry (no default collectors) and no-op observations. */
import { Registry } from 'prom-client';
import type * as Real from '../../../src/observability/metrics.ts';

export * from '../../../src/observability/metrics.ts';

const nothing = (): void => undefined;

/** Metrics that record nothing; `/metrics` answers an empty text. */
export const createMetrics: typeof Real.createMetrics = () => ({
  registry: new Registry(),
  admitOperationName: nothing,
  observeOperation: nothing,
  observeUpstreamCall: nothing,
  observeLoaderBatch: nothing,
  setBreakerState: nothing,
  countLoginBlock: nothing,
  trackCapacity: nothing,
  trackDraining: nothing,
  trackRedis: nothing,
  countGuardRejection: nothing,
  countRetry: nothing,
  countTenantMismatch: nothing,
  countUnhandledRejection: nothing,
  trackCache: nothing,
  countCacheEvent: nothing,
});
