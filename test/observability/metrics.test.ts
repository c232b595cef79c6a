/**
 * The per-request metrics go through prom-client's public API with each label combination's child kept
 * (`child-cache.ts`): a kept child must keep counting into the registry, across a reset too.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.ts';

const OPERATION = 'gateway_graphql_operations_total{operation="Orders",type="query",outcome="ok"}';

describe('metrics', () => {
  it('should count each observation of the same labels into one series', async () => {
    const metrics = createMetrics();
    for (let i = 0; i < 3; i++) {
      metrics.observeOperation({ name: 'Orders', type: 'query', outcome: 'ok', seconds: 0.02 });
    }
    metrics.observeUpstreamCall({ operation: 'getAll', outcome: 'ok', durationMillis: 30 });
    metrics.observeLoaderBatch('byId', 7);
    const text = await metrics.registry.metrics();
    expect(text).toContain(`${OPERATION} 3`);
    expect(text).toContain(
      'gateway_graphql_operation_duration_seconds_bucket{le="0.025",operation="Orders",type="query",outcome="ok"} 3',
    );
    expect(text).toContain('gateway_upstream_calls_total{operation="getAll",outcome="ok"} 1');
    expect(text).toContain(
      'gateway_upstream_call_duration_seconds_sum{operation="getAll",outcome="ok"} 0.03',
    );
    expect(text).toContain('gateway_loader_batch_size_bucket{le="10",loader="byId"} 1');
  });

  it('should forget every series on a reset and count again from zero afterwards', async () => {
    const metrics = createMetrics();
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
