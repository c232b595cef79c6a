/**
 * Child processes of the bench: each peer, the emulator and the load generator run as their own Node
 * process, on loopback, on ports the OS picked. Output goes to a log file, not a pipe, so a chatty process
 * never blocks and the orchestrator spends no CPU reading it. Spawning, waiting and stopping are the
 * shared process helper's (`support/child-process.ts`); this file only fixes the bench's defaults.
 */
import { join } from 'node:path';
import { startProcess, type RunningProcess } from '../support/child-process.ts';

export { freePort } from '../support/free-port.ts';
export { httpProbe, stopProcess, waitUntilReady } from '../support/child-process.ts';

/** A started child process and where its output goes. */
export interface BenchProcess extends RunningProcess {
  logFile: string;
}

/**
 * Starts `node [nodeOptions] <script>` (the running Node 24) with `env` added to this process's
 * environment.
 */
export function startNodeProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  logDir: string,
  stdio: 'log' | 'pipe' = 'log',
  nodeOptions: readonly string[] = [],
): BenchProcess {
  const logFile = join(logDir, `${name}.log`);
  const started = startProcess({
    name,
    args: [...nodeOptions, script],
    env: { ...process.env, ...env },
    logFile,
    pipeStdio: stdio === 'pipe',
  });
  // The same object, not a copy: `exited` is set on it when the process ends.
  return Object.assign(started, { logFile });
}

/** The last lines a process wrote, to show why it failed. */
export function logTail(process: BenchProcess, lines = 20): string {
  return process.outputTail(lines);
}
