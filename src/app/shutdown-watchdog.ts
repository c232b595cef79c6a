/**
 * The shutdown's last resort: a worker thread that ends the process after a deadline, whatever its main
 * thread is doing. A blocked event loop (a synchronous loop, a native call waiting on a futex) runs no
 * timer and no signal handler of the main thread, so only another thread can still act; SIGKILL, sent to
 * itself, is the one signal no handler can defer.
 */
import { Worker } from 'node:worker_threads';

/** The worker's code: CommonJS, evaluated, nothing of the gateway's modules (it must start in any state). */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  try {
    writeSync(2, 'shutdown did not finish within ' + workerData.deadlineMillis + ' ms: killing the process\\n');
  } catch {
    // stderr is gone too: end the process all the same.
  }
  process.kill(process.pid, 'SIGKILL');
}, workerData.deadlineMillis);
`;

/**
 * Starts the watchdog: the process is killed `deadlineMillis` from now unless it has exited. Unreferenced,
 * so it never keeps a process alive that is about to exit on its own.
 */
export function startShutdownWatchdog(deadlineMillis: number): void {
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { deadlineMillis },
    // A few MiB at most. None of the process's flags: a worker inherits them by default, and with them
    // `--eval` (a process started by `node -e` never got its watchdog) or the heap sizes of the gateway.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    env: {},
    execArgv: [],
    stdout: true,
    stderr: true,
  });
  worker.unref();
}
