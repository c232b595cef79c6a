/**
 * `npm run bench`: starts the emulator, the peers and the load generator as separate processes on
 * loopback, runs every workload against every peer (warm-up, then interleaved rounds), and prints a
 * Markdown table with the ratios. Writes `bench/results/<timestamp>.json` and `latest.json`; a full run
 * also writes `RESULTS.md` and the chart it embeds. See bench/README.md.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, USAGE } from './args.ts';
import type { BenchOptions } from './args.ts';
import { renderChart } from './chart.ts';
import { loadFixture, loginUpstream, waitForQuiet } from './emulator-client.ts';
import { startLoadClient } from './load-client.ts';
import type { LoadClient } from './load-client.ts';
import { describeMachine, machineLine } from './machine.ts';
import { loadJob, measureRound, preflight } from './measure.ts';
import type { RoundContext } from './measure.ts';
import { GATEWAY_SCRIPT, PEER_IDS, startPeer } from './peer-registry.ts';
import type { PeerEnvironment, PeerId, RunningPeer } from './peer-registry.ts';
import { clockTicksPerSecond } from './proc-stats.ts';
import { freePort, httpProbe, logTail, startNodeProcess, stopProcess, waitUntilReady } from './processes.ts';
import type { BenchProcess } from './processes.ts';
import { markdownReport } from './report.ts';
import type { RunReport } from './report.ts';
import { keptSection, renderResultsMd } from './results-md.ts';
import { median, checkTargets, ratios, summarise } from './summary.ts';
import type { CellSummary, FixedRateSummary, RoundMeasure } from './summary.ts';
import { EXECUTION_ORDER, WORKLOAD_IDS, WORKLOADS } from './workloads.ts';
import type { WorkloadId } from './workloads.ts';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Each round starts with a different peer, so no peer always runs first or last. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

async function runWorkload(
  context: RoundContext,
  peers: readonly RunningPeer[],
  workload: WorkloadId,
  options: BenchOptions,
  env: PeerEnvironment,
  notes: string[],
): Promise<CellSummary[]> {
  const { connections } = WORKLOADS[workload];
  const jobs = new Map<PeerId, ReturnType<typeof loadJob>>();
  const sequential = new Map<PeerId, number>();
  for (const peer of peers) {
    const requests = peer.requests(workload);
    if (requests === undefined) continue;
    const { check, problems, sequentialCallsPerRequest } = await preflight(
      peer,
      workload,
      requests,
      env.fixture,
      env.emulatorUrl,
    );
    for (const problem of problems) {
      log(`  ! ${problem}`);
      notes.push(problem);
    }
    sequential.set(peer.id, sequentialCallsPerRequest);
    const job = loadJob(requests, check, connections, options.roundSeconds);
    jobs.set(peer.id, job);
    if (options.warmupSeconds > 0) {
      await context.load.run({ ...job, durationSeconds: options.warmupSeconds });
      await waitForQuiet(env.emulatorUrl);
    }
  }
  const rounds = new Map<PeerId, { measures: RoundMeasure[]; samples: string[] }>();
  for (let round = 0; round < options.rounds; round++) {
    for (const peer of rotated(peers, round)) {
      const job = jobs.get(peer.id);
      if (job === undefined) continue;
      const { measure, mismatchSamples } = await measureRound(context, peer, job);
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

async function runFixedRate(
  context: RoundContext,
  peers: readonly RunningPeer[],
  options: BenchOptions,
  env: PeerEnvironment,
): Promise<FixedRateSummary | undefined> {
  const rate = options.fixedRate;
  const chosen = peers.filter((peer) => peer.id === 'P0' || peer.id === 'P4');
  if (rate === undefined || chosen.length === 0) return undefined;
  const jobs = new Map<PeerId, ReturnType<typeof loadJob>>();
  for (const peer of chosen) {
    const requests = peer.requests('W1');
    if (requests === undefined) continue;
    const { check } = await preflight(peer, 'W1', requests, env.fixture, env.emulatorUrl);
    // At least a second per round, so the p99 stands on at least `rate / 100` requests above it.
    const seconds = Math.max(1, options.roundSeconds);
    jobs.set(peer.id, loadJob(requests, check, WORKLOADS.W1.connections, seconds, rate));
  }
  const measured = new Map<PeerId, RoundMeasure[]>();
  for (let round = 0; round < options.rounds; round++) {
    for (const peer of rotated(chosen, round)) {
      const job = jobs.get(peer.id);
      if (job === undefined) continue;
      const { measure } = await measureRound(context, peer, job);
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

function writeOutputs(report: RunReport, full: boolean): void {
  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(resultsDir, `${report.startedAt.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  const chart = renderChart(
    report.cells,
    report.settings.workloads,
    report.settings.peers,
    `median req/s; ${machineLine(report.machine)}`,
  );
  writeFileSync(join(resultsDir, 'latest.svg'), chart);
  if (!full) return;
  writeFileSync(join(resultsDir, 'chart.svg'), chart);
  const resultsMd = join(benchDir, 'RESULTS.md');
  writeFileSync(resultsMd, renderResultsMd(report, keptSection(resultsMd)));
  log(`wrote ${resultsMd}`);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const startedAt = new Date();
  const notes: string[] = [];
  const logDir = mkdtempSync(join(tmpdir(), 'bench-logs-'));
  const started: BenchProcess[] = [];
  let load: LoadClient | undefined;
  try {
    const emulatorPort = await freePort();
    const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
    const emulatorEnv = {
      EMULATOR_PORT: String(emulatorPort),
      EMULATOR_LATENCY_MS: '0',
      NODE_ENV: 'production',
    };
    const emulator = startNodeProcess(
      'emulator',
      join(benchDir, '..', 'src', 'emulator', 'main.ts'),
      emulatorEnv,
      logDir,
    );
    started.push(emulator);
    await waitUntilReady(emulator, httpProbe(`${emulatorUrl}/__emulator/stats`));
    const upstreamToken = await loginUpstream(emulatorUrl);
    const env: PeerEnvironment = {
      emulatorUrl,
      emulator,
      upstreamToken,
      fixture: await loadFixture(emulatorUrl, upstreamToken),
      logDir,
    };

    let wanted = options.peers ?? [...PEER_IDS];
    if (options.peers === undefined && !existsSync(GATEWAY_SCRIPT)) {
      wanted = wanted.filter((peer) => peer !== 'P4');
      notes.push('P4 skipped: src/main.ts does not exist yet.');
    }
    const peers: RunningPeer[] = [];
    for (const id of wanted) {
      try {
        const peer = await startPeer(id, env);
        if (peer.process !== emulator) started.push(peer.process);
        peers.push(peer);
      } catch (error) {
        const message = `${id} did not start: ${error instanceof Error ? error.message : String(error)}`;
        if (options.peers !== undefined) throw new Error(message, { cause: error });
        log(message);
        notes.push(message.split('\n')[0] ?? message);
      }
    }
    load = startLoadClient(logDir);
    const context: RoundContext = { load, emulatorUrl, ticksPerSecond: clockTicksPerSecond() };
    const workloads = EXECUTION_ORDER.filter((w) => options.workloads.includes(w));
    log(`peers ${peers.map((p) => p.id).join(', ')}; workloads ${workloads.join(', ')}; logs in ${logDir}`);

    const cells: CellSummary[] = [];
    for (const workload of workloads) {
      log(`${workload}: ${WORKLOADS[workload].title}`);
      cells.push(...(await runWorkload(context, peers, workload, options, env, notes)));
    }
    const fixedRate = await runFixedRate(context, peers, options, env);
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
        peers: peerIds,
        workloads: shownWorkloads,
        fixedRate: options.fixedRate,
      },
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      cells: [...cells].sort((a, b) => PEER_IDS.indexOf(a.peer) - PEER_IDS.indexOf(b.peer)),
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
    writeOutputs(report, full || options.writeResultsMd);
    log(`run took ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`);
  } finally {
    await load?.close();
    for (const child of started.reverse()) {
      if (child.exited !== undefined && child.name !== 'emulator')
        log(`${child.name} had exited (${child.exited}):\n${logTail(child)}`);
      await stopProcess(child);
    }
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
