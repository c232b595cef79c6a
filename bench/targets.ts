/**
 * The issues' targets, checked against a run: P4's req/s over the other peers', its upstream calls, its
 * tail at a fixed rate against P0's and F1's, its CPU and GC time per request against F1's, the price of
 * traces (P4T against P4), its peak RSS.
 */
import type { FixedRateSummary } from './fixed-rate.ts';
import { errorCount } from './summary.ts';
import type { CellSummary, RATIO_PEERS, Ratios } from './summary.ts';
import type { WorkloadId } from './workloads.ts';

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
  /** P4's and F1's `metric` in a workload, and P4's over F1's (none when either is missing or F1's is 0). */
  const p4OverF1 = (workload: WorkloadId, metric: 'gcMicrosPerRequest' | 'cpuSecondsPer1000') => {
    const of = (peer: string): number | undefined =>
      cells.find((c) => c.workload === workload && c.peer === peer)?.[metric];
    const p4 = of('P4');
    const f1 = of('F1');
    const ratio = p4 === undefined || f1 === undefined || f1 <= 0 ? undefined : p4 / f1;
    return { p4, f1, ratio };
  };
  const gcRatio = (workload: WorkloadId, bound = 2): TargetCheck => {
    const { p4, f1, ratio } = p4OverF1(workload, 'gcMicrosPerRequest');
    return {
      target: `${workload}: P4's GC time per request ≤ ${bound}× F1's (--gc)`,
      measured: ratio === undefined ? 'n/a' : `${fmt(p4, 1)} / ${fmt(f1, 1)} µs = ${fmt(ratio)}×`,
      met: ratio === undefined ? undefined : ratio <= bound,
    };
  };
  // CPU per request, not req/s: on a shared machine the ratio of one run's CPU holds where req/s moves.
  const cpuRatio = (workload: WorkloadId, bound: number): TargetCheck => {
    const { p4, f1, ratio } = p4OverF1(workload, 'cpuSecondsPer1000');
    return {
      target: `${workload}: P4's CPU per request ≤ ${bound}× F1's`,
      measured: ratio === undefined ? 'n/a' : `${fmt(p4, 3)} / ${fmt(f1, 3)} s/1k = ${fmt(ratio)}×`,
      met: ratio === undefined ? undefined : ratio <= bound,
    };
  };
  const overFloor = fixedRate?.p99OverFloorMillis;
  const twoCalls = (workload: WorkloadId): TargetCheck => {
    const w3 = cell(workload);
    return {
      target: `${workload}: P4 makes exactly 2 upstream calls per request (one client; at most 2 under load)`,
      measured: `${fmt(w3?.sequentialCallsPerRequest)} / ${fmt(w3?.upstreamCallsPerRequest)}`,
      met:
        w3 === undefined
          ? undefined
          : w3.sequentialCallsPerRequest === 2 && w3.upstreamCallsPerRequest <= 2.01 && errorCount(w3) === 0,
    };
  };
  // Traces on (P4T) against off (P4), same run: the price of traces.
  const tracedRatio = (workload: WorkloadId, bound: number): TargetCheck => {
    const of = (peer: string): CellSummary | undefined =>
      cells.find((c) => c.workload === workload && c.peer === peer);
    const traced = of('P4T');
    const plain = of('P4');
    const ratio =
      traced === undefined || plain === undefined || plain.requestsPerSecond <= 0
        ? undefined
        : traced.requestsPerSecond / plain.requestsPerSecond;
    const cpu =
      traced === undefined || plain === undefined || plain.cpuSecondsPer1000 <= 0
        ? undefined
        : traced.cpuSecondsPer1000 / plain.cpuSecondsPer1000;
    return {
      target: `${workload}: P4T (traces on) ≥ ${bound}× P4's req/s`,
      measured: ratio === undefined ? 'n/a' : `${fmt(ratio)}× (CPU per request ${fmt(cpu)}×)`,
      met: atLeast(ratio, bound),
    };
  };
  // W1 with its type cached per account (P4P): each user re-reads its own object.
  const privateCache = (): TargetCheck => {
    const w1 = cells.find((c) => c.workload === 'W1' && c.peer === 'P4P');
    return {
      target: 'W1 with a PRIVATE type (P4P): ≤ 0.1 upstream calls per request, all correct',
      measured: fmt(w1?.upstreamCallsPerRequest, 3),
      met: w1 === undefined ? undefined : w1.upstreamCallsPerRequest <= 0.1 && errorCount(w1) === 0,
    };
  };
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
    twoCalls('W3'),
    twoCalls('W3T'),
    privateCache(),
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
      target: `P4's p99 within 3 ms of F1's at ${fixedRate?.rate ?? 500} req/s (paired rounds)`,
      measured: overFloor === undefined ? 'n/a' : `${fmt(overFloor)} ms`,
      met: overFloor === undefined ? undefined : overFloor <= 3,
    },
    cpuRatio('W1', 1.4),
    cpuRatio('W2', 1.4),
    cpuRatio('W3', 1.5),
    cpuRatio('W3T', 1.5),
    cpuRatio('W4', 1.4),
    gcRatio('W1'),
    gcRatio('W2'),
    gcRatio('W3', 3),
    gcRatio('W3T', 3),
    gcRatio('W4'),
    tracedRatio('W1', 0.8),
    tracedRatio('W3', 0.8),
    {
      target: 'P4 peak RSS under load ≤ 200 MB',
      measured: rssMiB === undefined ? 'n/a' : `${fmt(rssMiB, 0)} MiB`,
      met: rssMiB === undefined ? undefined : rssMiB * 1.048576 <= 200,
    },
  ];
}
