/**
 * The fixed-rate tail run: W1's requests at `--rate` per second to P0, F1 and P4 (and PB with
 * `--baseline`), 32 connections each carrying its own session, in paired rounds: the order reversed every
 * round, so F1 and P4 take turns going first. Run before W4, whose saves grow the emulator's store.
 */
import type { BenchOptions } from './args.ts';
import { FIXED_RATE_PEERS, summariseFixedRate } from './fixed-rate.ts';
import type { FixedRateSummary, RoundsByPeer } from './fixed-rate.ts';
import { loadJob, measureRound, preflight } from './measure.ts';
import type { RoundContext } from './measure.ts';
import type { PeerEnvironment, PeerId, RunningPeer } from './peer-registry.ts';
import { guarded } from './run-workload.ts';
import type { ProgressLog } from './run-workload.ts';
import { WORKLOADS } from './workloads.ts';

/** Round `round`'s order: the first one's, reversed on every other round. */
export function pairedOrder<T>(items: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...items] : [...items].reverse();
}

/** Runs the fixed-rate rounds; `undefined` without `--rate` or without any of its peers. */
export async function runFixedRate(
  context: RoundContext,
  peers: readonly RunningPeer[],
  options: BenchOptions,
  env: PeerEnvironment,
  notes: string[],
  log: ProgressLog,
): Promise<FixedRateSummary | undefined> {
  const rate = options.fixedRate;
  const chosen = FIXED_RATE_PEERS.flatMap((id) => peers.filter((peer) => peer.id === id));
  if (rate === undefined || chosen.length === 0) return undefined;
  const { connections } = WORKLOADS.W1;
  const jobs = new Map<PeerId, ReturnType<typeof loadJob>>();
  for (const peer of chosen) {
    const requests = peer.requests('W1');
    if (requests === undefined) continue;
    const checked = await guarded(peer, 'fixed-rate pre-flight', notes, log, () =>
      preflight(peer, 'W1', requests, env.fixture, env.emulatorUrl),
    );
    if (checked === undefined) continue;
    // W1's variants are one per bench user: connection `i` carries user `i`'s session (paced-load.ts).
    jobs.set(peer.id, loadJob(requests, checked.check, connections, options.fixedRateSeconds, rate));
  }
  const measured: RoundsByPeer = {};
  const rounds = options.fixedRateRounds;
  for (let round = 0; round < rounds; round++) {
    for (const peer of pairedOrder(chosen, round)) {
      const job = jobs.get(peer.id);
      if (job === undefined) continue;
      const result = await guarded(peer, `fixed-rate round ${round + 1}`, notes, log, () =>
        measureRound(context, peer, job),
      );
      const list = (measured[peer.id] ??= []);
      list[round] = result?.measure;
      if (result === undefined) continue;
      const { measure } = result;
      const gc =
        measure.gcMicrosPerRequest === undefined
          ? ''
          : `, GC ${measure.gcMicrosPerRequest.toFixed(1)} µs/req, ${measure.majorGcs ?? 0} full`;
      log(
        `  fixed ${rate} req/s round ${round + 1}/${rounds} ${peer.id}: p50 ${measure.p50Millis.toFixed(2)} ms, p99 ${measure.p99Millis.toFixed(2)} ms${gc}`,
      );
    }
  }
  return summariseFixedRate(rate, connections, rounds, measured);
}
