/**
 * Profiles one peer under one workload: `npx node bench/profile.ts [--peer=P4] [--workload=W1]
 * [--seconds=10] [--top=30] [--rate=500] [--node-flags="--max-semi-space-size=4"] [--no-prof] [--keep-logs]`
 * (`--rate`: that many requests per second, evenly spaced, instead of as fast as the peer answers;
 * `--peer=P4-log` etc.: the gateway with one feature neutralised, as in `npm run bench -- --features`).
 * Arguments are parsed by `node:util`'s `parseArgs`.
 *
 * Starts the emulator, the peer with `--cpu-prof` (through NODE_OPTIONS, so the peer starts exactly as in
 * the bench) and the load process, checks the peer's answer, loads it for `--seconds`, stops it (SIGTERM
 * becomes a normal exit so the profile is written) and prints the rankings of `cpuprofile-top.ts`, with
 * the req/s and peak RSS of the run. The profile stays in `bench/profiles/` (ignored by git) for a flame
 * graph viewer (Chrome DevTools, speedscope).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ALL_PEER_IDS, idList, nonNegative } from './args.ts';
import { setUpBench } from './bench-setup.ts';
import { formatSummary, summariseProfile } from './cpuprofile-top.ts';
import { FEATURE_IDS } from './features/feature-peers.ts';
import { startLoadClient } from './load-client.ts';
import { loadJob, preflight } from './measure.ts';
import { PEER_IDS, startPeer } from './peer-registry.ts';
import { samplePeakRss } from '../support/proc-stats.ts';
import { stopProcess } from './processes.ts';
import type { BenchProcess } from './processes.ts';
import { WORKLOAD_IDS, WORKLOADS } from './workloads.ts';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/** `--help` text. */
const USAGE = `npx node bench/profile.ts [options]
  --peer=P4             the peer to profile (${PEER_IDS.join(', ')}, or P4-<feature>: ${FEATURE_IDS.join(', ')})
  --workload=W1         the workload (${WORKLOAD_IDS.join(', ')})
  --seconds=10          seconds of load
  --top=30              functions listed per ranking
  --rate=N              N requests per second, evenly spaced (default: as fast as the peer answers)
  --node-flags="..."    Node options for the peer (e.g. --max-semi-space-size=16)
  --no-prof             no CPU profile: req/s and peak RSS only
  --keep-logs           keep the processes' logs`;

function parseProfileArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      peer: { type: 'string', default: 'P4' },
      workload: { type: 'string', default: 'W1' },
      seconds: { type: 'string', default: '10' },
      top: { type: 'string', default: '30' },
      rate: { type: 'string' },
      'node-flags': { type: 'string', default: '' },
      'no-prof': { type: 'boolean', default: false },
      'keep-logs': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const one = <T extends string>(value: string, allowed: readonly T[], flag: string): T => {
    const [found, ...more] = idList(value, allowed, flag);
    if (found === undefined || more.length > 0)
      throw new Error(`${flag}: expected one of ${allowed.join(', ')}`);
    return found;
  };
  return {
    peerId: one(values.peer, ALL_PEER_IDS, '--peer'),
    workload: one(values.workload, WORKLOAD_IDS, '--workload'),
    seconds: nonNegative(values.seconds, '--seconds'),
    top: nonNegative(values.top, '--top'),
    rate: values.rate === undefined ? undefined : nonNegative(values.rate, '--rate'),
    extraFlags: values['node-flags'],
    noProf: values['no-prof'],
    keepLogs: values['keep-logs'],
    help: values.help,
  };
}

async function main(): Promise<void> {
  const args = parseProfileArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const { peerId, workload, seconds, top, extraFlags } = args;
  const profiling = !args.noProf && peerId !== 'P0';
  const profileDir = join(benchDir, 'profiles');
  mkdirSync(profileDir, { recursive: true });
  const logDir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const started: BenchProcess[] = [];
  try {
    const env = await setUpBench(logDir, (emulator) => started.push(emulator));
    const { emulator, emulatorUrl, fixture } = env;

    // Only the peer gets these options: they are read from the environment when it is spawned.
    const options = [
      extraFlags,
      profiling
        ? `--cpu-prof --cpu-prof-dir=${profileDir} --import=${join(benchDir, 'profile-exit.ts')}`
        : '',
    ].join(' ');
    const before = new Set(readdirSync(profileDir));
    const previous = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = options.trim();
    const peer = await startPeer(peerId, env).finally(() => {
      if (previous === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = previous;
    });
    if (peer.process !== emulator) started.push(peer.process);
    const requests = peer.requests(workload);
    if (requests === undefined) throw new Error(`${peerId} has no ${workload}`);
    const { check, problems } = await preflight(peer, workload, requests, fixture, emulatorUrl);
    if (problems.length > 0) throw new Error(problems.join('\n'));

    const load = startLoadClient(logDir);
    started.push(load.process);
    const rss = samplePeakRss(peer.process.pid);
    const job = loadJob(requests, check, WORKLOADS[workload].connections, seconds, args.rate);
    const result = await load.run(job);
    const peakRss = rss.stop();
    await load.close();
    await stopProcess(peer.process);
    console.log(
      `${peerId} ${workload}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Millis.toFixed(2)} ms, ` +
        `p99 ${result.p99Millis.toFixed(2)} ms, errors ${result.errors + result.non2xx + result.mismatches}, ` +
        `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB${extraFlags === '' ? '' : ` (${extraFlags})`}`,
    );
    if (!profiling) return;
    const written = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
    const file = written[0];
    if (file === undefined) throw new Error(`${peerId} wrote no profile (log in ${logDir})`);
    const path = join(profileDir, file);
    console.log(`profile: ${path}`);
    console.log(formatSummary(summariseProfile(JSON.parse(readFileSync(path, 'utf8')), top)));
  } finally {
    for (const child of started.reverse()) await stopProcess(child);
    if (!args.keepLogs) rmSync(logDir, { recursive: true, force: true });
    else console.log(`process logs kept in ${logDir}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
