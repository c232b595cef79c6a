/**
 * The feature-cost table of the `--features` mode: for each feature, P4's CPU per request minus that of
 * P4 with the feature neutralised, as the median of the differences of paired rounds (round `r` of both
 * ran in the same interleaved pass, so a slow minute of the shared machine hits both).
 */
import type { CellSummary } from '../summary.ts';
import { median } from '../summary.ts';
import type { WorkloadId } from '../workloads.ts';
import { FEATURE_IDS, FEATURES, type FeatureId } from './feature-peers.ts';

/** What one feature costs on one workload. CPU in microseconds per request. */
export interface FeatureCost {
  feature: FeatureId;
  workload: WorkloadId;
  /** P4's median CPU per request. */
  fullMicros: number;
  /** The median CPU per request without the feature. */
  withoutMicros: number;
  /** Median over paired rounds of (P4 − without): what the feature costs. */
  costMicros: number;
  /** The cost as a share of P4's CPU per request. */
  costPercent: number;
  /** Paired rounds the median stands on. */
  pairs: number;
  fullRequestsPerSecond: number;
  withoutRequestsPerSecond: number;
}

const micros = (cpuSecondsPer1000: number): number => cpuSecondsPer1000 * 1000;

/** The cost of every feature that ran beside P4 on `workload`. */
export function featureCosts(cells: readonly CellSummary[], workload: WorkloadId): FeatureCost[] {
  const full = cells.find((cell) => cell.workload === workload && cell.peer === 'P4');
  if (full === undefined) return [];
  return FEATURE_IDS.flatMap((feature) => {
    const without = cells.find((cell) => cell.workload === workload && cell.peer === `P4-${feature}`);
    if (without === undefined) return [];
    const pairs = Math.min(full.rounds.length, without.rounds.length);
    const differences = Array.from({ length: pairs }, (_, index) => {
      const a = full.rounds[index]?.cpuSecondsPer1000 ?? 0;
      const b = without.rounds[index]?.cpuSecondsPer1000 ?? 0;
      return micros(a - b);
    });
    const fullMicros = micros(full.cpuSecondsPer1000);
    const costMicros = median(differences);
    return [
      {
        feature,
        workload,
        fullMicros,
        withoutMicros: micros(without.cpuSecondsPer1000),
        costMicros,
        costPercent: fullMicros > 0 ? (100 * costMicros) / fullMicros : 0,
        pairs,
        fullRequestsPerSecond: full.requestsPerSecond,
        withoutRequestsPerSecond: without.requestsPerSecond,
      },
    ];
  });
}

const fixed = (value: number, digits: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The table as Markdown, with the floor (F1) and P1 for scale when they ran. */
export function markdownFeatureCosts(costs: readonly FeatureCost[], cells: readonly CellSummary[]): string {
  const lines = [
    '| workload | feature neutralised | P4 CPU µs/req | without it | cost µs/req (paired median) | share of P4 | pairs | req/s P4 → without |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const cost of costs) {
    lines.push(
      `| ${cost.workload} | ${cost.feature}: ${FEATURES[cost.feature]} | ${fixed(cost.fullMicros, 0)} | ${fixed(cost.withoutMicros, 0)} | ` +
        `${fixed(cost.costMicros, 0)} | ${fixed(cost.costPercent, 1)} % | ${cost.pairs} | ` +
        `${fixed(cost.fullRequestsPerSecond, 0)} → ${fixed(cost.withoutRequestsPerSecond, 0)} |`,
    );
  }
  const references = cells.filter((cell) => cell.peer === 'F1' || cell.peer === 'P1');
  if (references.length > 0) {
    lines.push(
      '',
      ...references.map(
        (cell) =>
          `- ${cell.peer} on ${cell.workload}: ${fixed(micros(cell.cpuSecondsPer1000), 0)} µs CPU per request, ` +
          `${fixed(cell.requestsPerSecond, 0)} req/s.`,
      ),
    );
  }
  return lines.join('\n');
}
