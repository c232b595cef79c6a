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
  /** Main-thread GC time per request, µs (`--gc` only). */
  gcMicrosPerRequest?: number;
  /** Bytes allocated on the V8 heap per request (`--gc` only). */
  allocatedBytesPerRequest?: number;
  /** Full mark-compact collections during the round (`--gc` only). */
  majorGcs?: number;
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
  /** Medians of the rounds that counted collections (`--gc`); absent otherwise. */
  gcMicrosPerRequest?: number;
  allocatedBytesPerRequest?: number;
  /** Full collections over all rounds. */
  majorGcs?: number;
}

/** The median (mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The median of the rounds that have `pick`'s value, or `undefined` when none has (no `--gc`). */
export function medianOfPresent(
  rounds: readonly RoundMeasure[],
  pick: (round: RoundMeasure) => number | undefined,
): number | undefined {
  const values = rounds.map(pick).filter((value): value is number => value !== undefined);
  return values.length === 0 ? undefined : median(values);
}

/** The GC fields of a cell or a fixed-rate peer: medians per request, full collections summed. */
export function gcSummary(
  rounds: readonly RoundMeasure[],
): Pick<CellSummary, 'gcMicrosPerRequest' | 'allocatedBytesPerRequest' | 'majorGcs'> {
  const gcMicrosPerRequest = medianOfPresent(rounds, (r) => r.gcMicrosPerRequest);
  if (gcMicrosPerRequest === undefined) return {};
  return {
    gcMicrosPerRequest,
    allocatedBytesPerRequest: medianOfPresent(rounds, (r) => r.allocatedBytesPerRequest) ?? 0,
    majorGcs: rounds.reduce((total, round) => total + (round.majorGcs ?? 0), 0),
  };
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
    ...gcSummary(rounds),
  };
}

/** Errors of a cell: every response that was not a correct 2xx answer. */
export function errorCount(cell: CellSummary): number {
  return cell.non2xx + cell.socketErrors + cell.mismatches;
}

/** The peers P4 is compared with: the pass-through, the floor (as started alone and in the gateway's process), the two Apollo peers. */
export const RATIO_PEERS = ['P1', 'F1', 'F1H', 'P2', 'P3'] as const;

/** P4's req/s over another peer's, per workload (`undefined` where either is missing). */
export type RatioRow = Partial<Record<`P4/${(typeof RATIO_PEERS)[number]}`, number>>;
/** The ratio rows of the workloads that ran. */
export type Ratios = Partial<Record<WorkloadId, RatioRow>>;

/** The ratios of P4's median req/s to P1's, F1's, F1H's, P2's and P3's. */
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
