/**
 * The measured part of a run: for one workload, a pre-flight and a warm-up per peer, then interleaved
 * rounds (each starting with a different peer); and the fixed-rate latency run of P0 and P4.
 */
import type { BenchOptions } from './args.ts';
import { waitForQuiet } from './emulator-client.ts';
import { loadJob, measureRound, preflight } from './measure.ts';
import type { RoundContext } from './measure.ts';
import type { PeerEnvironment, PeerId, RunningPeer } from './peer-registry.ts';
import { median, summarise } from './summary.ts';
import type { CellSummary, FixedRateSummary, RoundMeasure } from './summary.ts';
import { WORKLOADS } from './workloads.ts';
import type { WorkloadId } from './workloads.ts';

/** Where progress lines go (stderr, so stdout holds only the report). */
export type ProgressLog = (line: string) => void;

/** Each round starts with a different peer, so no peer always runs first or last. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/**
 * Runs `step` for a peer; when it throws (typically because the peer died), notes why and answers
 * `undefined` so the run goes on with the other peers.
 */
async function guarded<T>(
  peer: RunningPeer,
  what: string,
  notes: string[],
  log: ProgressLog,
  step: () => Promise<T>,
): Promise<T | undefined> {
  // Read through a function: `exited` changes while the step awaits.
  const exited = (): string | undefined => peer.process.exited;
  if (exited() !== undefined) return undefined;
  try {
    return await step();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = exited();
    const reason = code === undefined ? message : `exited (${code})`;
    const note = `${peer.id} failed during ${what}: ${reason}`;
    log(`  ! ${note}`);
    notes.push(note);
    return undefined;
  }
}

/** Runs one workload against every peer and summarises each peer's rounds. */
export async function runWorkload(
  context: RoundContext,
  peers: readonly RunningPeer[],
  workload: WorkloadId,
  options: BenchOptions,
  env: PeerEnvironment,
  notes: string[],
  log: ProgressLog,
): Promise<CellSummary[]> {
  const { connections } = WORKLOADS[workload];
  const jobs = new Map<PeerId, ReturnType<typeof loadJob>>();
  const sequential = new Map<PeerId, number>();
  for (const peer of peers) {
    const requests = peer.requests(workload);
    if (requests === undefined) continue;
    const checked = await guarded(peer, `${workload} pre-flight`, notes, log, () =>
      preflight(peer, workload, requests, env.fixture, env.emulatorUrl),
    );
    if (checked === undefined) continue;
    const { check, problems, sequentialCallsPerRequest } = checked;
    for (const problem of problems) {
      log(`  ! ${problem}`);
      notes.push(problem);
    }
    sequential.set(peer.id, sequentialCallsPerRequest);
    const job = loadJob(requests, check, connections, options.roundSeconds);
    jobs.set(peer.id, job);
    if (options.warmupSeconds > 0) {
      await guarded(peer, `${workload} warm-up`, notes, log, async () => {
        await context.load.run({ ...job, durationSeconds: options.warmupSeconds });
        await waitForQuiet(env.emulatorUrl);
      });
    }
  }
  const rounds = new Map<PeerId, { measures: RoundMeasure[]; samples: string[] }>();
  for (let round = 0; round < options.rounds; round++) {
    for (const peer of rotated(peers, round)) {
      const job = jobs.get(peer.id);
      if (job === undefined) continue;
      const measured = await guarded(peer, `${workload} round ${round + 1}`, notes, log, () =>
        measureRound(context, peer, job),
      );
      if (measured === undefined) continue;
      const { measure, mismatchSamples } = measured;
      const entry = rounds.get(peer.id) ?? { measures: [], samples: [] };
      entry.measures.push(measure);
      entry.samples.push(...mismatchSamples.slice(0, 3 - entry.samples.length));
      rounds.set(peer.id, entry);
      const bad = measure.mismatches + measure.non2xx + measure.socketErrors;
      log(
        `  ${workload} round ${round + 1}/${options.rounds} ${peer.id}: ${measure.requestsPerSecond.toFixed(0)} req/s, ` +
          `p99 ${measure.p99Millis.toFixed(2)} ms, ${measure.upstreamCallsPerRequest.toFixed(2)} calls/req${bad > 0 ? `, ${bad} errors` : ''}`,
      );
    }
  }
  return peers.flatMap((peer) => {
    const entry = rounds.get(peer.id);
    return entry === undefined
      ? []
      : [
          summarise(workload, peer.id, entry.measures, {
            mismatchSamples: entry.samples,
            sequentialCallsPerRequest: sequential.get(peer.id) ?? 0,
          }),
        ];
  });
}

/** P0 and P4 at the same fixed request rate (W1's requests), for the latency P4 adds. */
export async function runFixedRate(
  context: RoundContext,
  peers: readonly RunningPeer[],
  options: BenchOptions,
  env: PeerEnvironment,
  notes: string[],
  log: ProgressLog,
): Promise<FixedRateSummary | undefined> {
  const rate = options.fixedRate;
  const chosen = peers.filter((peer) => peer.id === 'P0' || peer.id === 'P4');
  if (rate === undefined || chosen.length === 0) return undefined;
  const jobs = new Map<PeerId, ReturnType<typeof loadJob>>();
  for (const peer of chosen) {
    const requests = peer.requests('W1');
    if (requests === undefined) continue;
    const checked = await guarded(peer, 'fixed-rate pre-flight', notes, log, () =>
      preflight(peer, 'W1', requests, env.fixture, env.emulatorUrl),
    );
    if (checked === undefined) continue;
    const { check } = checked;
    // At least a second per round, so the p99 stands on at least `rate / 100` requests above it.
    const seconds = Math.max(1, options.roundSeconds);
    jobs.set(peer.id, loadJob(requests, check, WORKLOADS.W1.connections, seconds, rate));
  }
  const measured = new Map<PeerId, RoundMeasure[]>();
  for (let round = 0; round < options.rounds; round++) {
    for (const peer of rotated(chosen, round)) {
      const job = jobs.get(peer.id);
      if (job === undefined) continue;
      const result = await guarded(peer, `fixed-rate round ${round + 1}`, notes, log, () =>
        measureRound(context, peer, job),
      );
      if (result === undefined) continue;
      const { measure } = result;
      measured.set(peer.id, [...(measured.get(peer.id) ?? []), measure]);
      log(
        `  fixed ${rate} req/s round ${round + 1}/${options.rounds} ${peer.id}: p50 ${measure.p50Millis.toFixed(2)} ms, p99 ${measure.p99Millis.toFixed(2)} ms`,
      );
    }
  }
  const summary: FixedRateSummary = { rate, peers: {} };
  for (const [peer, measures] of measured) {
    summary.peers[peer] = {
      requestsPerSecond: median(measures.map((m) => m.requestsPerSecond)),
      p50Millis: median(measures.map((m) => m.p50Millis)),
      p99Millis: median(measures.map((m) => m.p99Millis)),
      errors: measures.reduce((sum, m) => sum + m.mismatches + m.non2xx + m.socketErrors, 0),
    };
  }
  const { P0, P4 } = summary.peers;
  if (P0 !== undefined && P4 !== undefined) {
    summary.addedP99Millis = P4.p99Millis - P0.p99Millis;
    summary.addedP50Millis = P4.p50Millis - P0.p50Millis;
  }
  return summary;
}
