/**
 * The measured part of a run: for one workload, a pre-flight and a warm-up per peer, then interleaved
 * rounds (each starting with a different peer). The fixed-rate tail is `run-fixed-rate.ts`.
 */
import type { BenchOptions } from './args.ts';
import { waitForQuiet } from './emulator-client.ts';
import { loadJob, measureRound, preflight } from './measure.ts';
import type { RoundContext } from './measure.ts';
import type { PeerEnvironment, PeerId, RunningPeer } from './peer-registry.ts';
import { summarise } from './summary.ts';
import type { CellSummary, RoundMeasure } from './summary.ts';
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
export async function guarded<T>(
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
