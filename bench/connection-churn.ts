/**
 * What a client churning connections costs the gateway: `npx node bench/connection-churn.ts [--seconds=15]
 * [--addresses=17] [--abandon-after=800] [--new-per-second=N] [--prof] [--top=30]` (`--new-per-second`:
 * `MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND`, default the gateway's).
 *
 * Starts the bench emulator and the gateway as `npm start` runs it with its default shares (not the
 * bench peers' proxy settings: `MAX_CONNECTIONS_PER_ADDRESS` 1,024), then the slow-body flood of the
 * fair-share tests (`support/slow-body-flood.ts`): every address holds `MAX_CONNECTIONS_PER_ADDRESS`
 * connections, each sending a POST's head and the start of its body, closed by the flood `--abandon-after`
 * milliseconds after it opened (0: never) and opened again 250 ms later. Prints the connections the flood
 * opened, the gateway's CPU (user + system, read from /proc) in milliseconds a second of flood, and in
 * microseconds a connection. `--prof`: a CPU profile of the gateway, ranked like `bench/profile.ts`.
 * Speed on a quiet machine only (no test suite or helper beside it).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nonNegative } from './args.ts';
import { setUpBench } from './bench-setup.ts';
import { formatSummary, summariseProfile } from './cpuprofile-top.ts';
import { stopProcess } from './processes.ts';
import { startGatewayCommand } from '../support/gateway-command.ts';
import { clockTicksPerSecond, cpuSeconds } from '../support/proc-stats.ts';
import type { RunningProcess } from '../support/child-process.ts';
import { PRODUCTION_PROCESS_ENV, startCommandNodeOptions } from '../support/start-command.ts';
import { startSlowBodyFlood } from '../support/slow-body-flood.ts';
import { SETTING_DEFAULTS } from '../src/config/defaults.ts';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    strict: true,
    options: {
      seconds: { type: 'string', default: '15' },
      addresses: { type: 'string', default: '17' },
      'abandon-after': { type: 'string', default: '800' },
      'new-per-second': { type: 'string' },
      prof: { type: 'boolean', default: false },
      top: { type: 'string', default: '30' },
    },
  });
  const seconds = nonNegative(values.seconds, '--seconds');
  const addresses = nonNegative(values.addresses, '--addresses');
  const abandonAfter = nonNegative(values['abandon-after'], '--abandon-after');
  const profileDir = join(benchDir, 'profiles');
  mkdirSync(profileDir, { recursive: true });
  const logDir = mkdtempSync(join(tmpdir(), 'bench-churn-'));
  const started: RunningProcess[] = [];
  try {
    const { emulatorUrl } = await setUpBench(logDir, (emulator) => started.push(emulator));
    const before = new Set(readdirSync(profileDir));
    const profiling = `--cpu-prof --cpu-prof-dir=${profileDir} --import=${join(benchDir, 'profile-exit.ts')}`;
    const gateway = await startGatewayCommand({
      upstreamUrl: emulatorUrl,
      nodeOptions: [
        ...startCommandNodeOptions(join(benchDir, '..', 'package.json')),
        ...(values.prof ? profiling.split(' ') : []),
      ],
      env: {
        ...PRODUCTION_PROCESS_ENV,
        NODE_ENV: 'production',
        SESSION_SECRET: 'a-bench-secret-of-at-least-32-characters',
        LOG_LEVEL: 'error',
        ...(values['new-per-second'] === undefined
          ? {}
          : { MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND: values['new-per-second'] }),
      },
    });
    started.push(gateway.process);
    const flood = startSlowBodyFlood({
      ports: [Number(new URL(gateway.baseUrl).port)],
      addresses: Array.from({ length: addresses }, (_, i) => `127.0.0.${String(20 + i)}`),
      perAddress: SETTING_DEFAULTS.MAX_CONNECTIONS_PER_ADDRESS,
      declaredBytes: 10_000,
      trickleMillis: 1_000,
      reconnectMillis: 250,
      ...(abandonAfter === 0 ? {} : { abandonAfterMillis: abandonAfter }),
    });
    const ticks = clockTicksPerSecond();
    // The first second fills the places; measured after it.
    await sleep(1_000);
    const cpuBefore = cpuSeconds(gateway.process.pid, ticks);
    const openedBefore = await flood.opened();
    await sleep(seconds * 1_000);
    const cpu = cpuSeconds(gateway.process.pid, ticks) - cpuBefore;
    const opened = (await flood.opened()) - openedBefore;
    const ended = await flood.stop();
    await stopProcess(gateway.process);
    console.log(
      `${String(addresses)} addresses, abandoned after ${abandonAfter === 0 ? 'never' : `${String(abandonAfter)} ms`}: ` +
        `${String(opened)} connections in ${String(seconds)} s (${(opened / seconds).toFixed(0)}/s), ` +
        `gateway CPU ${((cpu * 1_000) / seconds).toFixed(0)} ms/s, ${((cpu * 1e6) / Math.max(1, opened)).toFixed(0)} µs a connection; ` +
        `ended by the gateway: ${JSON.stringify(Object.fromEntries(ended))}`,
    );
    if (!values.prof) return;
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
    if (file === undefined) throw new Error('the gateway wrote no profile');
    const path = join(profileDir, file);
    console.log(`profile: ${path}`);
    const top = nonNegative(values.top, '--top');
    console.log(formatSummary(summariseProfile(JSON.parse(readFileSync(path, 'utf8')), top)));
  } finally {
    for (const child of started.reverse()) await stopProcess(child);
    rmSync(logDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
