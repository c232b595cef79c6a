/**
 * The feature-cost table of the `--features` mode: for each partner of P4 (a copy without one feature, or
 * the floor F1), P4's CPU per request minus the partner's, as the median over rounds of the differences
 * measured at the same time (`run-feature-pairs.ts`).
 */
import { median } from '../summary.ts';
import type { RoundMeasure } from '../summary.ts';
import type { WorkloadId } from '../workloads.ts';
import { FEATURES, featureOf } from './feature-peers.ts';
import type { FeaturePair } from './run-feature-pairs.ts';

/** What one feature costs on one workload. CPU in microseconds per request. */
export interface FeatureCost {
  /** `P4-log`, …, or `F1`. */
  partner: string;
  workload: WorkloadId;
  /** P4's median CPU per request over the pair's rounds. */
  fullMicros: number;
  /** The partner's median CPU per request. */
  partnerMicros: number;
  /** Median over rounds of (P4 − partner): what the feature costs (for F1: all the gateway adds). */
  costMicros: number;
  /** The cost as a share of P4's CPU per request. */
  costPercent: number;
  /** Lowest and highest of the rounds' differences. */
  rangeMicros: [number, number];
  rounds: number;
  fullRequestsPerSecond: number;
  partnerRequestsPerSecond: number;
}

const micros = (round: RoundMeasure): number => round.cpuSecondsPer1000 * 1000;

/** The cost per pair. */
export function featureCosts(pairs: readonly FeaturePair[]): FeatureCost[] {
  return pairs.map((pair) => {
    const differences = pair.full.map((full, index) => {
      const partner = pair.partnerRounds[index];
      return partner === undefined ? 0 : micros(full) - micros(partner);
    });
    const fullMicros = median(pair.full.map(micros));
    const costMicros = median(differences);
    return {
      partner: pair.partner,
      workload: pair.workload,
      fullMicros,
      partnerMicros: median(pair.partnerRounds.map(micros)),
      costMicros,
      costPercent: fullMicros > 0 ? (100 * costMicros) / fullMicros : 0,
      rangeMicros: [Math.min(...differences), Math.max(...differences)],
      rounds: differences.length,
      fullRequestsPerSecond: median(pair.full.map((round) => round.requestsPerSecond)),
      partnerRequestsPerSecond: median(pair.partnerRounds.map((round) => round.requestsPerSecond)),
    };
  });
}

const fixed = (value: number, digits: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** What a partner leaves out, as the table says it. */
function partnerText(partner: string): string {
  const feature = featureOf(partner);
  if (feature !== undefined) return `${partner}: ${FEATURES[feature]}`;
  return partner === 'F1' ? 'F1: everything the gateway adds to the floor' : partner;
}

/**
 * The table as Markdown. With `P4-none` in the run, a last column subtracts its (zero in theory) cost from
 * every other: P4 runs in every pair and never idles, and on a busy machine that alone made it cheaper than
 * an identical copy.
 */
export function markdownFeatureCosts(costs: readonly FeatureCost[]): string {
  const control = costs.find((cost) => cost.partner === 'P4-none');
  const net = (cost: FeatureCost): string =>
    control === undefined || cost === control ? '–' : fixed(cost.costMicros - control.costMicros, 0);
  const lines = [
    '| workload | P4 beside | P4 CPU µs/req | partner µs/req | cost µs/req (median of paired rounds) | min–max | share of P4 | cost net of P4-none | rounds | req/s P4 / partner |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const cost of costs) {
    lines.push(
      `| ${cost.workload} | ${partnerText(cost.partner)} | ${fixed(cost.fullMicros, 0)} | ${fixed(cost.partnerMicros, 0)} | ` +
        `${fixed(cost.costMicros, 0)} | ${fixed(cost.rangeMicros[0], 0)}–${fixed(cost.rangeMicros[1], 0)} | ` +
        `${fixed(cost.costPercent, 1)} % | ${net(cost)} | ${cost.rounds} | ` +
        `${fixed(cost.fullRequestsPerSecond, 0)} / ${fixed(cost.partnerRequestsPerSecond, 0)} |`,
    );
  }
  return lines.join('\n');
}
