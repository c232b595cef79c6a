/**
 * The per-request metrics go through prom-client's public API with each label combination's child kept
 * (`child-cache.ts`): a kept child must keep counting into the registry, across a reset too.
 */
import { describe, expect, it } from 'vitest';
import { MAX_OPERATION_SERIES, createMetrics } from '../../src/observability/metrics.ts';

const OPERATION =
  'gateway_graphql_operations_total{operation="Orders",type="query",outcome="ok",blame="none"}';

/** Metrics in which `Orders` counts under its name (as a trusted document's operation would). */
function metricsWithOrders() {
  const metrics = createMetrics();
  metrics.admitOperationName('Orders', { trusted: true });
  return metrics;
}

describe('metrics', () => {
  it('should count requests by organization only where ALLOWED_ORGANIZATION_CODES bounds the label', async () => {
    const bounded = createMetrics({ organizations: ['nord', 'sued'] });
    const ok = { name: undefined, type: 'query', outcome: 'ok', seconds: 0.01 };
    bounded.observeOperation({ ...ok, organization: 'nord' });
    bounded.observeOperation({ ...ok, organization: 'nord' });
    bounded.observeOperation({
      ...ok,
      outcome: 'UPSTREAM_UNAVAILABLE',
      blame: 'upstream_health',
      organization: 'sued',
    });
    bounded.observeOperation({ ...ok, organization: 'some-code-nobody-listed' });
    bounded.observeOperation(ok);
    const text = await bounded.registry.metrics();
    expect(text).toContain(
      'gateway_graphql_operations_by_organization_total{organization="nord",blame="none"} 2',
    );
    expect(text).toContain(
      'gateway_graphql_operations_by_organization_total{organization="sued",blame="upstream_health"} 1',
    );
    expect(text).toContain(
      'gateway_graphql_operations_by_organization_total{organization="none",blame="none"} 2',
    );
    expect(text).not.toContain('some-code-nobody-listed');

    const unbounded = createMetrics();
    unbounded.observeOperation({ ...ok, organization: 'nord' });
    expect(await unbounded.registry.metrics()).not.toContain('by_organization');
  });

  it('should count each observation of the same labels into one series', async () => {
    const metrics = metricsWithOrders();
    for (let i = 0; i < 3; i++) {
      metrics.observeOperation({ name: 'Orders', type: 'query', outcome: 'ok', seconds: 0.02 });
    }
    metrics.observeUpstreamCall({ operation: 'getAll', outcome: 'ok', durationMillis: 30 });
    metrics.observeLoaderBatch('byId', 7);
    const text = await metrics.registry.metrics();
    expect(text).toContain(`${OPERATION} 3`);
    expect(text).toContain(
      'gateway_graphql_operation_duration_seconds_bucket{le="0.025",operation="Orders",type="query",outcome="ok",blame="none"} 3',
    );
    expect(text).toContain('gateway_upstream_calls_total{operation="getAll",outcome="ok",blame="none"} 1');
    expect(text).toContain(
      'gateway_upstream_call_duration_seconds_sum{operation="getAll",outcome="ok",blame="none"} 0.03',
    );
    expect(text).toContain('gateway_loader_batch_size_bucket{le="10",loader="byId"} 1');
  });

  it('should forget every series on a reset and count again from zero afterwards', async () => {
    const metrics = metricsWithOrders();
    metrics.observeOperation({ name: 'Orders', type: 'query', outcome: 'ok', seconds: 0.02 });
    metrics.registry.resetMetrics();
    expect(await metrics.registry.metrics()).not.toContain(OPERATION);
    metrics.observeOperation({ name: 'Orders', type: 'query', outcome: 'ok', seconds: 0.02 });
    expect(await metrics.registry.metrics()).toContain(`${OPERATION} 1`);
  });

  it('should refuse a duration that is not a finite number', () => {
    const metrics = createMetrics();
    expect(() => {
      metrics.observeOperation({ name: 'Orders', type: 'query', outcome: 'ok', seconds: Number.NaN });
    }).toThrow(TypeError);
  });
});

describe('operation names', () => {
  const observe = (metrics: ReturnType<typeof createMetrics>, name: string) => {
    metrics.observeOperation({ name, type: 'query', outcome: 'ok', seconds: 0.01 });
  };
  const labels = async (metrics: ReturnType<typeof createMetrics>) =>
    ((await metrics.registry.getSingleMetric('gateway_graphql_operations_total')?.get())?.values ?? []).map(
      (value) => value.labels.operation,
    );

  it('should count a name nobody vouched for as other, and an unnamed operation as anonymous', async () => {
    const metrics = createMetrics();
    observe(metrics, 'Orders');
    observe(metrics, '');
    expect(await labels(metrics)).toEqual(['other', 'anonymous']);
  });

  it('should give each user a share of the names and trusted documents names beyond the cap', async () => {
    const metrics = createMetrics({ maxNames: 4, maxNamesPerUser: 2 });
    for (const name of ['A1', 'A2', 'A3']) metrics.admitOperationName(name, { user: 'a' });
    for (const name of ['B1', 'B2']) metrics.admitOperationName(name, { user: 'b' });
    for (const name of ['C1']) metrics.admitOperationName(name, { user: 'c' });
    metrics.admitOperationName('Trusted', { trusted: true });
    // Names that are no GraphQL name, or pose as the server's own labels, never count.
    for (const name of ['other', 'anonymous', 'not a name', 'x'.repeat(65)]) {
      metrics.admitOperationName(name, { trusted: true });
    }
    for (const name of ['A1', 'A2', 'A3', 'B1', 'B2', 'C1', 'Trusted', 'not a name']) observe(metrics, name);
    expect(await labels(metrics)).toEqual(['A1', 'A2', 'other', 'B1', 'B2', 'Trusted']);
  });

  it('should keep outcomes and types to the server’s own values', async () => {
    const metrics = createMetrics();
    metrics.observeOperation({ name: undefined, type: 'junk', outcome: 'not a code', seconds: 0.01 });
    const values = (await metrics.registry.getSingleMetric('gateway_graphql_operations_total')?.get())
      ?.values;
    expect(values?.map((value) => value.labels)).toEqual([
      { operation: 'anonymous', type: 'unknown', outcome: 'other', blame: 'none' },
    ]);
  });

  it('should fold combinations past the series cap into operation="other"', async () => {
    const metrics = createMetrics();
    const outcomes = ['ok', 'BAD_USER_INPUT', 'NOT_FOUND', 'FORBIDDEN', 'UPSTREAM_ERROR'];
    for (let i = 0; i < 250; i++) {
      metrics.admitOperationName(`Op${i}`, { trusted: true });
      for (const outcome of outcomes) {
        metrics.observeOperation({ name: `Op${i}`, type: 'query', outcome, seconds: 0.01 });
      }
    }
    const values = (await metrics.registry.getSingleMetric('gateway_graphql_operations_total')?.get())
      ?.values;
    expect(values).toHaveLength(MAX_OPERATION_SERIES + outcomes.length);
    const other = values?.filter((value) => value.labels.operation === 'other') ?? [];
    expect(other.reduce((sum, value) => sum + value.value, 0)).toBe(
      250 * outcomes.length - MAX_OPERATION_SERIES,
    );
  });
});
