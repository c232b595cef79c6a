/**
 * The `--features` mode's measurement: P4 and one partner (a copy of P4 with one feature neutralised, or
 * the floor F1) loaded at the same time by two load processes, so both see the same minute of a shared
 * machine (alternating rounds of two identical copies differed by up to 30 % here; simultaneous ones by
 * about 1 %). Each pair is measured `rounds` times, partners in a rotating order, the load processes
 * swapping sides every round, each round after a short unmeasured load of the same pair.
 */
import type { BenchOptions } from '../args.ts';
import { upstreamCallCount, waitForQuiet } from '../emulator-client.ts';
import type { LoadClient } from '../load-client.ts';
import type { LoadJob } from '../load-job.ts';
import { loadJob, preflight } from '../measure.ts';
import type { PeerEnvironment, PeerId, RunningPeer } from '../peer-registry.ts';
import { cpuSeconds, samplePeakRss } from '../../support/proc-stats.ts';
import type { RoundMeasure } from '../summary.ts';
import { WORKLOADS, type WorkloadId } from '../workloads.ts';

/** The paired rounds of P4 and one partner on one workload: `full[i]` ran at the same time as `partner[i]`. */
export interface FeaturePair {
  partner: PeerId;
  workload: WorkloadId;
  full: RoundMeasure[];
  partnerRounds: RoundMeasure[];
}

/** What the pairs need from the run. */
export interface PairContext {
  loads: readonly [LoadClient, LoadClient];
  ticksPerSecond: number;
  env: PeerEnvironment;
  log: (line: string) => void;
  notes: string[];
}

/** One side of a pair: the load result with the peer's CPU and peak RSS over the same window. */
async function measureSide(context: PairContext, load: LoadClient, peer: RunningPeer, job: LoadJob) {
  const { pid } = peer.process;
  const cpuBefore = cpuSeconds(pid, context.ticksPerSecond);
  const rss = samplePeakRss(pid);
  const result = await load.run(job);
  return { result, cpu: cpuSeconds(pid, context.ticksPerSecond) - cpuBefore, peakRssBytes: rss.stop() };
}

/** Both sides at once. Upstream calls are counted for the pair together (one emulator serves both). */
async function measurePair(
  context: PairContext,
  sides: readonly [RunningPeer, LoadJob][],
  swap: boolean,
): Promise<RoundMeasure[]> {
  const { emulatorUrl } = context.env;
  const callsBefore = await upstreamCallCount(emulatorUrl);
  const loads = swap ? [context.loads[1], context.loads[0]] : context.loads;
  const measured = await Promise.all(
    sides.map(([peer, job], index) => measureSide(context, loads[index] ?? context.loads[0], peer, job)),
  );
  const calls = (await upstreamCallCount(emulatorUrl)) - callsBefore;
  await waitForQuiet(emulatorUrl);
  const requests = measured.reduce((sum, side) => sum + side.result.requests, 0);
  return measured.map(({ result, cpu, peakRssBytes }) => ({
    requests: result.requests,
    requestsPerSecond: result.requestsPerSecond,
    p50Millis: result.p50Millis,
    p99Millis: result.p99Millis,
    upstreamCallsPerRequest: requests > 0 ? calls / requests : 0,
    cpuSecondsPer1000: result.requests > 0 ? (cpu / result.requests) * 1000 : 0,
    peakRssBytes,
    non2xx: result.non2xx,
    socketErrors: result.errors,
    mismatches: result.mismatches,
  }));
}

/** Runs every pair (P4 with each of `partners`) on `workload`. Every response is checked, as in a run. */
export async function runFeaturePairs(
  context: PairContext,
  full: RunningPeer,
  partners: readonly RunningPeer[],
  workload: WorkloadId,
  options: BenchOptions,
  warmupSeconds: number,
): Promise<FeaturePair[]> {
  const { env, log, notes } = context;
  const jobs = new Map<PeerId, LoadJob>();
  for (const peer of [full, ...partners]) {
    const requests = peer.requests(workload);
    if (requests === undefined) continue;
    const checked = await preflight(peer, workload, requests, env.fixture, env.emulatorUrl);
    for (const problem of checked.problems) {
      log(`  ! ${problem}`);
      notes.push(problem);
    }
    jobs.set(
      peer.id,
      loadJob(requests, checked.check, WORKLOADS[workload].connections, options.roundSeconds),
    );
  }
  const fullJob = jobs.get(full.id);
  if (fullJob === undefined) return [];
  const pairs = partners.flatMap((partner): FeaturePair[] => {
    const job = jobs.get(partner.id);
    return job === undefined ? [] : [{ partner: partner.id, workload, full: [], partnerRounds: [] }];
  });
  const sidesOf = (pair: FeaturePair, seconds: number): [RunningPeer, LoadJob][] => {
    const partner = partners.find((peer) => peer.id === pair.partner);
    const job = jobs.get(pair.partner);
    if (partner === undefined || job === undefined) return [];
    return [
      [full, { ...fullJob, durationSeconds: seconds }],
      [partner, { ...job, durationSeconds: seconds }],
    ];
  };
  for (const pair of pairs) await measurePair(context, sidesOf(pair, warmupSeconds), false);
  for (let round = 0; round < options.rounds; round++) {
    const shift = round % Math.max(1, pairs.length);
    for (const pair of [...pairs.slice(shift), ...pairs.slice(0, shift)]) {
      // A copy idles while the others are measured, and V8 shrinks an idle heap: unmeasured load on both
      // sides first, so neither starts its round regrowing it (P4, loaded in every pair, never idles).
      if (options.warmupSeconds > 0) await measurePair(context, sidesOf(pair, options.warmupSeconds), false);
      const [a, b] = await measurePair(context, sidesOf(pair, options.roundSeconds), round % 2 === 1);
      if (a === undefined || b === undefined) continue;
      pair.full.push(a);
      pair.partnerRounds.push(b);
      for (const [id, m] of [['P4', a] as const, [pair.partner, b] as const]) {
        const errors = m.mismatches + m.non2xx + m.socketErrors;
        if (errors > 0)
          notes.push(`${id} beside ${pair.partner}, ${workload} round ${round + 1}: ${errors} errors`);
      }
      const us = (m: RoundMeasure): string => (m.cpuSecondsPer1000 * 1000).toFixed(0);
      log(
        `  ${workload} round ${round + 1}/${options.rounds} P4 ${us(a)} µs/req (${a.requestsPerSecond.toFixed(0)} req/s) ` +
          `beside ${pair.partner} ${us(b)} µs/req (${b.requestsPerSecond.toFixed(0)} req/s)`,
      );
    }
  }
  return pairs;
}
