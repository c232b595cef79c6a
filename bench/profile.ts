/**
 * Profiles one peer under one workload: `npx node bench/profile.ts [--peer=P4] [--workload=W1]
 * [--seconds=10] [--top=30] [--rate=500] [--node-flags="--max-semi-space-size=4"] [--no-prof] [--keep-logs]`
 * (`--rate`: that many requests per second, evenly spaced, instead of as fast as the peer answers).
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
import { formatSummary, summariseProfile } from './cpuprofile-top.ts';
import { loadFixture, loginUpstream } from './emulator-client.ts';
import { startLoadClient } from './load-client.ts';
import { loadJob, preflight } from './measure.ts';
import { PEER_IDS, startPeer } from './peer-registry.ts';
import type { PeerId } from './peer-registry.ts';
import { samplePeakRss } from './proc-stats.ts';
import { freePort, httpProbe, startNodeProcess, stopProcess, waitUntilReady } from './processes.ts';
import type { BenchProcess } from './processes.ts';
import { WORKLOAD_IDS, WORKLOADS } from './workloads.ts';
import type { WorkloadId } from './workloads.ts';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(prefix));
  if (arg === undefined) return undefined;
  return arg.startsWith(prefix) ? arg.slice(prefix.length) : 'true';
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  const found = allowed.find((item) => item === value.toUpperCase());
  if (found === undefined) throw new Error(`--${name}: expected one of ${allowed.join(', ')}`);
  return found;
}

async function main(): Promise<void> {
  const peerId: PeerId = oneOf(flag('peer') ?? 'P4', PEER_IDS, 'peer');
  const workload: WorkloadId = oneOf(flag('workload') ?? 'W1', WORKLOAD_IDS, 'workload');
  const seconds = Number(flag('seconds') ?? '10');
  const top = Number(flag('top') ?? '30');
  const profiling = flag('no-prof') === undefined && peerId !== 'P0';
  const extraFlags = flag('node-flags') ?? '';
  const profileDir = join(benchDir, 'profiles');
  mkdirSync(profileDir, { recursive: true });
  const logDir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const started: BenchProcess[] = [];
  try {
    const emulatorPort = await freePort();
    const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
    const emulator = startNodeProcess(
      'emulator',
      join(benchDir, '..', 'emulator', 'main.ts'),
      { EMULATOR_PORT: String(emulatorPort), EMULATOR_LATENCY_MS: '0', NODE_ENV: 'production' },
      logDir,
    );
    started.push(emulator);
    await waitUntilReady(emulator, httpProbe(`${emulatorUrl}/__emulator/stats`));
    const upstreamToken = await loginUpstream(emulatorUrl);
    const fixture = await loadFixture(emulatorUrl, upstreamToken);
    const env = { emulatorUrl, emulator, upstreamToken, fixture, logDir };

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
    const rate = flag('rate');
    const job = loadJob(
      requests,
      check,
      WORKLOADS[workload].connections,
      seconds,
      rate === undefined ? undefined : Number(rate),
    );
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
    if (flag('keep-logs') === undefined) rmSync(logDir, { recursive: true, force: true });
    else console.log(`process logs kept in ${logDir}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
