/**
 * The embedded emulator with any of `startEmulator`'s options (users, object types, …) in a process of its
 * own, for the tests that time a victim beside a flood: in the test's own process it shared a thread with
 * the victim's reads, so serving the attacker's large pages upstream was timed as the gateway's delay (at
 * load 6, two replicas: the victim's p95 under 200 KiB pages 2.9–7.2× its quiet p95 in five runs with the
 * emulator in the test's thread, 1.7–2.2× in three with it apart). A deployment has its upstream on
 * another machine. `npm run emulator` (`emulator-command.ts`) takes only its settings; this takes the
 * options object, as JSON.
 */
import { stopProcess, startHttpProcess, type RunningProcess } from '../../support/child-process.ts';
import { freePort } from '../../support/free-port.ts';
import type { EmulatorOptions, RunningEmulator } from '../../emulator/index.ts';

type Stats = ReturnType<RunningEmulator['stats']>;

/** The script the child runs: `startEmulator` with the options of its environment. */
const MAIN = new URL('./emulator-process-main.ts', import.meta.url).pathname;

/** An emulator in a child process, with the parts of `RunningEmulator` the flood tests read, over HTTP. */
export interface EmulatorProcess {
  process: RunningProcess;
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Calls per wire operation since start or the last reset (`GET /__emulator/stats`). */
  stats(): Promise<Stats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

/** Starts `startEmulator({ ...options, port })` in a child process and waits until it serves. */
export async function startEmulatorProcess(options: Omit<EmulatorOptions, 'port'>): Promise<EmulatorProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${String(port)}`;
  const started = await startHttpProcess({
    name: 'emulator',
    args: [MAIN],
    env: { PATH: process.env.PATH ?? '', EMULATOR_OPTIONS: JSON.stringify({ ...options, port }) },
    readyUrl: `${url}/__emulator/healthz`,
  });
  return {
    process: started,
    url,
    stats: async () => (await (await fetch(`${url}/__emulator/stats`)).json()) as Stats,
    resetStats: async () => {
      await (await fetch(`${url}/__emulator/stats/reset`, { method: 'POST' })).text();
    },
    close: async () => {
      await stopProcess(started, 2_000);
    },
  };
}
