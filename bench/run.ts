/**
 * `npm run bench`: starts the emulator, the peers and the load generator as separate processes on
 * loopback, runs every workload against every peer (warm-up, then interleaved rounds), and prints a
 * Markdown table with the ratios. Writes `bench/results/<timestamp>.json` and `latest.json`; a full run
 * also writes `RESULTS.md` and the chart it embeds; `--features` writes its cost table into RESULTS.md.
 * See bench/README.md.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs, USAGE } from './args.ts';
import type { BenchOptions } from './args.ts';
import { setUpBench } from './bench-setup.ts';
import { FEATURE_IDS } from './features/feature-peers.ts';
import { runFeatures } from './features/run-features.ts';
import { startLoadClient } from './load-client.ts';
import type { LoadClient } from './load-client.ts';
import { describeMachine } from './machine.ts';
import type { RoundContext } from './measure.ts';
import { GATEWAY_SCRIPT, PEER_IDS, startPeer } from './peer-registry.ts';
import { peerOrder } from './peer-titles.ts';
import type { PeerId, RunningPeer } from './peer-registry.ts';
import { clockTicksPerSecond } from '../support/proc-stats.ts';
import { logTail, stopProcess } from './processes.ts';
import type { BenchProcess } from './processes.ts';
import { markdownReport } from './report.ts';
import { writeOutputs } from './write-results.ts';
import type { RunReport } from './report.ts';
import { ratios } from './summary.ts';
import { checkTargets } from './targets.ts';
import type { CellSummary } from './summary.ts';
import { runFixedRate } from './run-fixed-rate.ts';
import { runWorkload } from './run-workload.ts';
import { EXECUTION_ORDER, WORKLOAD_IDS, WORKLOADS } from './workloads.ts';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** How many peers start side by side. */
const PEERS_STARTED_AT_ONCE = 3;

/** The peers a run starts: those asked for, else every one that exists (in `--features` mode P4's copies). */
function wantedPeers(options: BenchOptions, notes: string[]): PeerId[] {
  if (options.features)
    return options.peers ?? ['F1', 'P4', ...FEATURE_IDS.map((feature) => `P4-${feature}` as const)];
  if (options.peers !== undefined) return options.peers;
  const all = PEER_IDS.filter((id) => id !== 'PB' || options.baseline !== undefined);
  if (existsSync(GATEWAY_SCRIPT)) return all;
  notes.push('P4 skipped: src/main.ts does not exist yet.');
  return all.filter((peer) => !peer.startsWith('P4'));
}

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const startedAt = new Date();
  const notes: string[] = [];
  const logDir = mkdtempSync(join(tmpdir(), 'bench-logs-'));
  const started: BenchProcess[] = [];
  let load: LoadClient | undefined;
  let clean = false;
  try {
    const env = {
      ...(await setUpBench(logDir, (emulator) => started.push(emulator))),
      baselineRoot: options.baseline,
      gc: options.gc,
    };
    const { emulator, emulatorUrl } = env;
    const wanted = wantedPeers(options, notes);
    const peers: RunningPeer[] = [];
    // Started a few at a time (each waits until it answers): ten gateways starting at once on a busy 2-core
    // machine missed the 30 s start deadline.
    const starts: PromiseSettledResult<RunningPeer>[] = [];
    for (let index = 0; index < wanted.length; index += PEERS_STARTED_AT_ONCE) {
      const batch = wanted.slice(index, index + PEERS_STARTED_AT_ONCE);
      starts.push(...(await Promise.allSettled(batch.map((id) => startPeer(id, env)))));
    }
    for (const outcome of starts) {
      if (outcome.status !== 'fulfilled') continue;
      if (outcome.value.process !== emulator) started.push(outcome.value.process);
      peers.push(outcome.value);
    }
    for (const [index, outcome] of starts.entries()) {
      if (outcome.status === 'fulfilled') continue;
      const error: unknown = outcome.reason;
      const reason = error instanceof Error ? error.message : String(error);
      const message = `${wanted[index] ?? '?'} did not start: ${reason}`;
      if (options.peers !== undefined) throw new Error(message, { cause: error });
      log(message);
      notes.push(message.split('\n')[0] ?? message);
    }
    load = startLoadClient(logDir);
    if (options.features) {
      await runFeatures(options, env, peers, load, notes, log);
      clean = notes.length === 0;
      return;
    }
    const context: RoundContext = { load, emulatorUrl, ticksPerSecond: clockTicksPerSecond() };
    const workloads = EXECUTION_ORDER.filter((w) => options.workloads.includes(w));
    log(`peers ${peers.map((p) => p.id).join(', ')}; workloads ${workloads.join(', ')}; logs in ${logDir}`);

    const cells: CellSummary[] = [];
    const reads = workloads.filter((w) => w !== 'W4');
    // The first workload warms every peer up for longer: its JIT compiler settles there, not in 1 s.
    let first = true;
    const warmedUp = (): typeof options => {
      if (!first) return options;
      first = false;
      return { ...options, warmupSeconds: Math.max(options.warmupSeconds, options.firstWarmupSeconds) };
    };
    for (const workload of reads) {
      log(`${workload}: ${WORKLOADS[workload].title}`);
      cells.push(...(await runWorkload(context, peers, workload, warmedUp(), env, notes, log)));
    }
    // Before the saves, which grow the emulator's store for the rest of the run.
    const fixedRate = await runFixedRate(context, peers, options, env, notes, log);
    if (workloads.includes('W4')) {
      log(`W4: ${WORKLOADS.W4.title}`);
      cells.push(...(await runWorkload(context, peers, 'W4', options, env, notes, log)));
    }
    const peerIds = peers.map((peer) => peer.id);
    const shownWorkloads = options.workloads;
    const ratioTable = ratios(cells, shownWorkloads);
    const report: RunReport = {
      machine: describeMachine(startedAt),
      settings: {
        quick: options.quick,
        rounds: options.rounds,
        roundSeconds: options.roundSeconds,
        warmupSeconds: options.warmupSeconds,
        firstWarmupSeconds: options.firstWarmupSeconds,
        peers: peerIds,
        workloads: shownWorkloads,
        fixedRate: options.fixedRate,
        gc: options.gc,
      },
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      cells: [...cells].sort((a, b) => peerOrder(a.peer) - peerOrder(b.peer)),
      ratios: ratioTable,
      fixedRate,
      targets: checkTargets(cells, ratioTable, fixedRate),
      notes,
    };
    console.log(markdownReport(report));
    const full =
      !options.quick &&
      options.peers === undefined &&
      options.workloads.length === WORKLOAD_IDS.length &&
      peerIds.includes('P4');
    await writeOutputs(report, full || options.writeResultsMd, log);
    log(`run took ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`);
    clean = notes.length === 0;
  } finally {
    await load?.close();
    for (const child of started.reverse()) {
      if (child.exited !== undefined && child.name !== 'emulator')
        log(`${child.name} had exited (${child.exited}):\n${logTail(child)}`);
      await stopProcess(child);
    }
    // The processes' output is only worth keeping when something went wrong.
    if (clean) rmSync(logDir, { recursive: true, force: true });
    else log(`process logs kept in ${logDir}`);
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
