/**
 * The fixed-rate tail: W1 at a steady request rate to P0 (the emulator's own latency), F1 (the floor) and
 * P4, one session per connection, in paired rounds (the order reversed every round). What matters is P4's
 * p99 beside F1's in the same round, so the difference is taken per round, then its median.
 */
import type { PeerId } from './peer-registry.ts';
import { gcSummary, median } from './summary.ts';
import type { RoundMeasure } from './summary.ts';

/** The peers of the fixed-rate run, in their first round's order (PB: only with `--baseline`). */
export const FIXED_RATE_PEERS: readonly PeerId[] = ['P0', 'F1', 'P4', 'PB'];

/** One peer's latency at the fixed rate: medians of its rounds, errors summed, GC when counted. */
export interface FixedRatePeer {
  p50Millis: number;
  p99Millis: number;
  requestsPerSecond: number;
  errors: number;
  /** Each round's p99, in round order (absent in results written before paired rounds). */
  roundP99Millis?: number[];
  gcMicrosPerRequest?: number;
  allocatedBytesPerRequest?: number;
  majorGcs?: number;
}

/** The fixed-rate run. */
export interface FixedRateSummary {
  rate: number;
  /** Connections, each carrying its own session (absent in older results). */
  connections?: number;
  rounds?: number;
  peers: Partial<Record<PeerId, FixedRatePeer>>;
  /** P4 minus P0 (the latency P4 adds to the upstream's own), median over the rounds both ran. */
  addedP99Millis?: number;
  addedP50Millis?: number;
  /** P4 minus F1 (what P4 adds to its floor), median over paired rounds. */
  p99OverFloorMillis?: number;
  p50OverFloorMillis?: number;
}

/** A peer's measure per round (`undefined` where that round failed for it). */
export type RoundsByPeer = Partial<Record<PeerId, (RoundMeasure | undefined)[]>>;

/** The median over rounds where both ran of `pick(b) − pick(a)`, or `undefined` when no round pairs them. */
export function pairedDifference(
  a: readonly (RoundMeasure | undefined)[] | undefined,
  b: readonly (RoundMeasure | undefined)[] | undefined,
  pick: (measure: RoundMeasure) => number,
): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  const differences: number[] = [];
  for (const [round, left] of a.entries()) {
    const right = b[round];
    if (left !== undefined && right !== undefined) differences.push(pick(right) - pick(left));
  }
  return differences.length === 0 ? undefined : median(differences);
}

/** The summary of a fixed-rate run from each peer's rounds. */
export function summariseFixedRate(
  rate: number,
  connections: number,
  rounds: number,
  measured: RoundsByPeer,
): FixedRateSummary {
  const summary: FixedRateSummary = { rate, connections, rounds, peers: {} };
  for (const peer of FIXED_RATE_PEERS) {
    const all = measured[peer];
    const ran = all?.filter((measure): measure is RoundMeasure => measure !== undefined) ?? [];
    if (ran.length === 0) continue;
    summary.peers[peer] = {
      requestsPerSecond: median(ran.map((m) => m.requestsPerSecond)),
      p50Millis: median(ran.map((m) => m.p50Millis)),
      p99Millis: median(ran.map((m) => m.p99Millis)),
      errors: ran.reduce((sum, m) => sum + m.mismatches + m.non2xx + m.socketErrors, 0),
      roundP99Millis: ran.map((m) => m.p99Millis),
      ...gcSummary(ran),
    };
  }
  const { P0, F1, P4 } = measured;
  const add = (key: keyof FixedRateSummary, value: number | undefined): void => {
    if (value !== undefined) Object.assign(summary, { [key]: value });
  };
  // What P4 adds to the bare upstream (P0) and to the floor (F1), at the median and the 99th percentile.
  const pairs = [
    ['addedP99Millis', P0, 'p99Millis'],
    ['addedP50Millis', P0, 'p50Millis'],
    ['p99OverFloorMillis', F1, 'p99Millis'],
    ['p50OverFloorMillis', F1, 'p50Millis'],
  ] as const;
  for (const [key, base, percentile] of pairs)
    add(
      key,
      pairedDifference(base, P4, (m) => m[percentile]),
    );
  return summary;
}
