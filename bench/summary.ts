/**
 * From rounds to numbers: one measured round, the per-(workload, peer) summary of its rounds (medians;
 * peaks and error counts over all rounds), the P4 ratios and the targets.
 */
import type { PeerId } from './peer-registry.ts';
import type { WorkloadId } from './workloads.ts';

/** One measured round of one peer on one workload. */
export interface RoundMeasure {
  requests: number;
  requestsPerSecond: number;
  p50Millis: number;
  p99Millis: number;
  upstreamCallsPerRequest: number;
  cpuSecondsPer1000: number;
  peakRssBytes: number;
  non2xx: number;
  socketErrors: number;
  mismatches: number;
}

/** A (workload, peer) cell of the table: medians of its rounds, peak RSS and errors over all of them. */
export interface CellSummary {
  workload: WorkloadId;
  peer: PeerId;
  rounds: RoundMeasure[];
  requestsPerSecond: number;
  p50Millis: number;
  p99Millis: number;
  upstreamCallsPerRequest: number;
  /** Upstream calls per request with one client (no concurrency, so no coalescing): the batching alone. */
  sequentialCallsPerRequest: number;
  cpuSecondsPer1000: number;
  peakRssBytes: number;
  non2xx: number;
  socketErrors: number;
  mismatches: number;
  /** Bodies that failed the check (a few), to show what went wrong. */
  mismatchSamples: string[];
}

/** The median (mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Summarises the rounds of one cell. */
export function summarise(
  workload: WorkloadId,
  peer: PeerId,
  rounds: RoundMeasure[],
  extra: { mismatchSamples: string[]; sequentialCallsPerRequest: number },
): CellSummary {
  const med = (pick: (round: RoundMeasure) => number): number => median(rounds.map(pick));
  const sum = (pick: (round: RoundMeasure) => number): number =>
    rounds.reduce((total, round) => total + pick(round), 0);
  return {
    workload,
    peer,
    rounds,
    requestsPerSecond: med((r) => r.requestsPerSecond),
    p50Millis: med((r) => r.p50Millis),
    p99Millis: med((r) => r.p99Millis),
    upstreamCallsPerRequest: med((r) => r.upstreamCallsPerRequest),
    sequentialCallsPerRequest: extra.sequentialCallsPerRequest,
    cpuSecondsPer1000: med((r) => r.cpuSecondsPer1000),
    peakRssBytes: Math.max(0, ...rounds.map((r) => r.peakRssBytes)),
    non2xx: sum((r) => r.non2xx),
    socketErrors: sum((r) => r.socketErrors),
    mismatches: sum((r) => r.mismatches),
    mismatchSamples: extra.mismatchSamples,
  };
}

/** Errors of a cell: every response that was not a correct 2xx answer. */
export function errorCount(cell: CellSummary): number {
  return cell.non2xx + cell.socketErrors + cell.mismatches;
}

/** The peers P4 is compared with: the pass-through, the floor, the two Apollo peers. */
export const RATIO_PEERS = ['P1', 'F1', 'P2', 'P3'] as const;

/** P4's req/s over another peer's, per workload (`undefined` where either is missing). */
export type RatioRow = Partial<Record<`P4/${(typeof RATIO_PEERS)[number]}`, number>>;
/** The ratio rows of the workloads that ran. */
export type Ratios = Partial<Record<WorkloadId, RatioRow>>;

/** The ratios of P4's median req/s to P1's, F1's, P2's and P3's. */
export function ratios(cells: readonly CellSummary[], workloads: readonly WorkloadId[]): Ratios {
  const result: Ratios = {};
  for (const workload of workloads) {
    const rate = (peer: PeerId): number | undefined =>
      cells.find((c) => c.workload === workload && c.peer === peer)?.requestsPerSecond;
    const p4 = rate('P4');
    const row: RatioRow = {};
    for (const other of RATIO_PEERS) {
      const value = rate(other);
      if (p4 !== undefined && value !== undefined && value > 0) row[`P4/${other}`] = p4 / value;
    }
    result[workload] = row;
  }
  return result;
}

/** The fixed-rate run: P0's and P4's latency at the same request rate. */
export interface FixedRateSummary {
  rate: number;
  peers: Partial<
    Record<PeerId, { p50Millis: number; p99Millis: number; requestsPerSecond: number; errors: number }>
  >;
  /** P4's p99 minus P0's, in milliseconds. */
  addedP99Millis?: number;
  addedP50Millis?: number;
}

/** One of the targets and whether this run met it. */
export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | undefined;
}

/** Checks the targets against a run (`met` is `undefined` when the run lacks the numbers). */
export function checkTargets(
  cells: readonly CellSummary[],
  ratioTable: Ratios,
  fixedRate: FixedRateSummary | undefined,
): TargetCheck[] {
  const fmt = (value: number | undefined, digits = 2): string =>
    value === undefined ? 'n/a' : value.toFixed(digits);
  const cell = (workload: WorkloadId): CellSummary | undefined =>
    cells.find((c) => c.workload === workload && c.peer === 'P4');
  const atLeast = (value: number | undefined, bound: number): boolean | undefined =>
    value === undefined ? undefined : value >= bound;
  const w3 = cell('W3');
  const w5 = cell('W5');
  const peakRss = cells.filter((c) => c.peer === 'P4').map((c) => c.peakRssBytes);
  const rssMiB = peakRss.length === 0 ? undefined : Math.max(...peakRss) / 1024 ** 2;
  const ratioTarget = (
    workload: WorkloadId,
    other: (typeof RATIO_PEERS)[number],
    bound: number,
  ): TargetCheck => {
    const value = ratioTable[workload]?.[`P4/${other}`];
    return {
      target: `${workload}: P4 ≥ ${bound}× ${other}`,
      measured: fmt(value),
      met: atLeast(value, bound),
    };
  };
  return [
    ratioTarget('W1', 'P1', 0.6),
    ratioTarget('W1', 'F1', 0.75),
    ratioTarget('W1', 'P3', 2),
    ratioTarget('W2', 'P1', 0.6),
    ratioTarget('W2', 'P3', 2),
    ratioTarget('W4', 'P1', 0.5),
    ratioTarget('W4', 'P3', 2),
    {
      target: 'W3: P4 makes exactly 2 upstream calls per request (one client; at most 2 under load)',
      measured: `${fmt(w3?.sequentialCallsPerRequest)} / ${fmt(w3?.upstreamCallsPerRequest)}`,
      met:
        w3 === undefined
          ? undefined
          : w3.sequentialCallsPerRequest === 2 && w3.upstreamCallsPerRequest <= 2.01 && errorCount(w3) === 0,
    },
    {
      target:
        'W5 (one session): P4 makes far fewer upstream calls than requests (≤ 0.5 per request), all correct',
      measured: fmt(w5?.upstreamCallsPerRequest, 3),
      met: w5 === undefined ? undefined : w5.upstreamCallsPerRequest <= 0.5 && errorCount(w5) === 0,
    },
    {
      target: `added p99 latency over P0 at ${fixedRate?.rate ?? 500} req/s ≤ 3 ms`,
      measured: fixedRate?.addedP99Millis === undefined ? 'n/a' : `${fmt(fixedRate.addedP99Millis)} ms`,
      met: fixedRate?.addedP99Millis === undefined ? undefined : fixedRate.addedP99Millis <= 3,
    },
    {
      target: 'P4 peak RSS under load ≤ 200 MB',
      measured: rssMiB === undefined ? 'n/a' : `${fmt(rssMiB, 0)} MiB`,
      met: rssMiB === undefined ? undefined : rssMiB * 1.048576 <= 200,
    },
  ];
}
