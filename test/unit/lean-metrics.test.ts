import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLeanCounter, createLeanHistogram } from '../../src/observability/lean-metrics.ts';

// The lean metrics must be indistinguishable from prom-client's on /metrics: same lines, same order.

const BUCKETS = [0.005, 0.01, 0.025, 0.1, 1, 10];
const observation = fc.record({
  operation: fc.constantFrom('Object', 'Objects', 'anonymous', 'other'),
  outcome: fc.constantFrom('ok', 'UPSTREAM_ERROR', 'BAD_USER_INPUT'),
  value: fc.oneof(
    fc.constantFrom(...BUCKETS),
    fc.double({ min: 0, max: 30, noNaN: true, noDefaultInfinity: true }),
  ),
});

describe('lean metrics', () => {
  it('should export a histogram exactly as prom-client does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 40 }), async (observations) => {
        const reference = new Registry();
        const lean = new Registry();
        const options = { name: 'test_seconds', help: 'A test histogram.', buckets: BUCKETS };
        const theirs = new Histogram({
          ...options,
          labelNames: ['operation', 'outcome'] as const,
          registers: [reference],
        });
        const ours = createLeanHistogram({
          ...options,
          labelNames: ['operation', 'outcome'],
          registry: lean,
        });
        for (const { operation, outcome, value } of observations) {
          theirs.observe({ operation, outcome }, value);
          ours.observe({ operation, outcome }, value);
        }
        expect(await lean.metrics()).toBe(await reference.metrics());
      }),
    );
  });

  it('should export a counter exactly as prom-client does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 40 }), async (observations) => {
        const reference = new Registry();
        const lean = new Registry();
        const options = { name: 'test_total', help: 'A test counter.' };
        const theirs = new Counter({
          ...options,
          labelNames: ['operation', 'outcome'] as const,
          registers: [reference],
        });
        const ours = createLeanCounter({ ...options, labelNames: ['operation', 'outcome'], registry: lean });
        for (const { operation, outcome } of observations) {
          theirs.inc({ operation, outcome });
          ours.inc({ operation, outcome });
        }
        expect(await lean.metrics()).toBe(await reference.metrics());
      }),
    );
  });

  it('should forget every series when the registry is reset', async () => {
    const registry = new Registry();
    const counter = createLeanCounter({ name: 'x_total', help: 'x', labelNames: ['a'], registry });
    counter.inc({ a: 'one' });
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('x_total{a="one"}');
  });

  it('should refuse a value that is not a finite number', () => {
    const registry = new Registry();
    const histogram = createLeanHistogram({ name: 'y', help: 'y', labelNames: [], buckets: [1], registry });
    expect(() => {
      histogram.observe({}, Number.NaN);
    }).toThrow(TypeError);
  });
});
