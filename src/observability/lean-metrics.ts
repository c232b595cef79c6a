/**
 * Counters and histograms for the metrics recorded on every request, registered in a prom-client registry
 * and exported exactly as prom-client's own (same `get()` shape, so the same text format).
 *
 * Why not prom-client's classes here: each of their `inc`/`observe` calls validates the label object,
 * builds a hash string from it and allocates a closure; with five observations per GraphQL request that was
 * a few per cent of a small request's CPU. These take label values in a fixed order, find the series by one
 * joined key, and keep the buckets in a plain array. The rarely moving metrics stay prom-client's.
 */
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  value: number;
  sum: number;
  /** Per bucket, not cumulative; the last one is `+Inf`. */
  buckets: number[];
}

/** What both metric kinds share: a name, a help text, label names in order, one registry. */
export interface LeanMetricOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registry: Registry;
}

/** A counter; `inc` takes the label values in `labelNames` order. */
export interface LeanCounter<L extends string> {
  inc(labels: Readonly<Record<L, string>>, value?: number): void;
}

/** A histogram; `observe` takes the label values in `labelNames` order. */
export interface LeanHistogram<L extends string> {
  observe(labels: Readonly<Record<L, string>>, value: number): void;
}

abstract class LeanMetric<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  protected readonly labelNames: readonly L[];
  protected series = new Map<string, Series>();

  constructor(options: LeanMetricOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    // prom-client's registry only calls `get()`, `reset()` and reads `name`/`type`/`aggregator`.
    options.registry.registerMetric(this as unknown as Metric);
  }

  protected seriesOf(labels: Readonly<Record<L, string>>, bucketCount: number): Series {
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\u0000`;
    let found = this.series.get(key);
    if (found === undefined) {
      const copy: Record<string, string> = {};
      for (const name of this.labelNames) copy[name] = labels[name];
      found = { labels: copy, value: 0, sum: 0, buckets: new Array<number>(bucketCount).fill(0) };
      this.series.set(key, found);
    }
    return found;
  }

  /** Forgets every series (prom-client's `resetMetrics`). */
  reset(): void {
    this.series = new Map();
  }
}

class Counter<L extends string> extends LeanMetric<L> implements LeanCounter<L> {
  readonly type = 'counter';

  inc(labels: Readonly<Record<L, string>>, value = 1): void {
    this.seriesOf(labels, 0).value += value;
  }

  get() {
    const values = [...this.series.values()].map(({ labels, value }) => ({ labels, value }));
    return Promise.resolve({
      help: this.help,
      name: this.name,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }
}

class Histogram<L extends string> extends LeanMetric<L> implements LeanHistogram<L> {
  readonly type = 'histogram';
  private readonly upperBounds: readonly number[];

  constructor(options: LeanMetricOptions<L> & { buckets: readonly number[] }) {
    super(options);
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
  }

  observe(labels: Readonly<Record<L, string>>, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`${this.name}: not a finite number`);
    const series = this.seriesOf(labels, this.upperBounds.length + 1);
    let bucket = 0;
    while (bucket < this.upperBounds.length && value > (this.upperBounds[bucket] ?? Infinity)) bucket++;
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
    series.sum += value;
    series.value += 1;
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, sum, value: count, buckets } of this.series.values()) {
      let cumulative = 0;
      for (const [index, bound] of this.upperBounds.entries()) {
        cumulative += buckets[index] ?? 0;
        values.push({
          labels: { le: bound, ...labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      }
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }
}

/** A counter registered in `options.registry`. */
export function createLeanCounter<L extends string>(options: LeanMetricOptions<L>): LeanCounter<L> {
  return new Counter(options);
}

/** A histogram registered in `options.registry`; `buckets` are the upper bounds (`+Inf` is added). */
export function createLeanHistogram<L extends string>(
  options: LeanMetricOptions<L> & { buckets: readonly number[] },
): LeanHistogram<L> {
  return new Histogram(options);
}
