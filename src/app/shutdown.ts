/**
 * Graceful shutdown on SIGTERM (what Kubernetes sends before it stops a pod):
 *
 * 1. readiness flips first: `/readyz` answers 503 "draining" while requests are still served, for
 *    `delayMillis` (`SHUTDOWN_DELAY_MS`), so load balancers stop sending new work;
 * 2. the listener closes: new connections are refused, idle keep-alive connections close, and requests in
 *    flight (a save included: it is never cut) finish, for at most `graceMillis` (`SHUTDOWN_GRACE_MS`);
 * 3. after the grace period, remaining connections are closed by force;
 * 4. the exit code is 0 when everything finished in time, 1 when something had to be cut.
 *
 * Every awaited step has a deadline, so the whole is bounded by {@link shutdownDeadlineMillis}: a close that
 * never settles, an emulator or exporter that hangs, or a log reader that is gone cannot hold the process.
 *
 * SIGTERM and SIGINT start the shutdown once ({@link handleStopSignals}); a second signal ends the process at
 * once. That second signal must work even when the event loop is blocked, so it is not left to a JavaScript
 * handler: the first signal removes the handlers, which gives both signals back their default action (the
 * kernel ends the process), and starts a watchdog thread that kills the process if the shutdown outlives
 * its deadline. A blocked event loop (a synchronous loop, a native call waiting on a futex) runs no timer
 * and no signal handler of the main thread, so only another thread can still act; SIGKILL, sent to
 * itself, is the one signal no handler can defer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Gateway } from './create-gateway.ts';

/** After the grace period, how long the forced close of the remaining connections may take. */
const FORCE_CLOSE_MS = 2_000;
/** How long `afterClose` (the embedded emulator, the last spans) may take. */
const AFTER_CLOSE_MS = 1_500;
/** How long the last log lines may take to leave. */
const LOG_FLUSH_MS = 500;

/** The longest a shutdown takes, every step at its deadline; the watchdog's limit adds a margin to it. */
export function shutdownDeadlineMillis(delayMillis: number, graceMillis: number): number {
  return delayMillis + graceMillis + FORCE_CLOSE_MS + AFTER_CLOSE_MS + LOG_FLUSH_MS;
}

/** Options of {@link createShutdown}. */
export interface ShutdownOptions {
  gateway: Pick<Gateway, 'app' | 'startDraining' | 'close'>;
  /** `SHUTDOWN_DELAY_MS`: draining before the listener closes. Default in config: 0. */
  delayMillis: number;
  /** `SHUTDOWN_GRACE_MS`: the longest in-flight requests may take. Default in config: 10_000. */
  graceMillis: number;
  /** Runs once the gateway has closed (the embedded emulator stops here), for at most 1.5 s. */
  afterClose?: () => Promise<void>;
}

/** Whether `promise` settled within `millis` (its rejection counts as settled; the caller handles it). */
async function settlesWithin(promise: Promise<unknown>, millis: number): Promise<boolean> {
  const timer = new AbortController();
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    sleep(millis, false, { signal: timer.signal }).catch(() => false),
  ]);
  timer.abort();
  return settled;
}

/** Writes out the lines the logger buffers (pino's `flush`; Fastify's logger type does not declare it). */
function flushLog(log: object): Promise<void> {
  return new Promise((done) => {
    if (!('flush' in log) || typeof log.flush !== 'function') {
      done();
      return;
    }
    log.flush.call(log, () => {
      done();
    });
  });
}

/** Returns `shutdown(signal)`, resolving to the exit code; later calls answer the first call's promise. */
export function createShutdown(options: ShutdownOptions): (signal: string) => Promise<number> {
  let running: Promise<number> | undefined;

  async function shutdown(signal: string): Promise<number> {
    const { gateway } = options;
    const log = gateway.app.log;
    gateway.startDraining();
    log.info({ signal, delayMs: options.delayMillis, graceMs: options.graceMillis }, 'draining');
    if (options.delayMillis > 0) await sleep(options.delayMillis);

    let code = 0;
    const closing = gateway.close();
    closing.catch((error: unknown) => {
      code = 1;
      log.error({ err: error }, 'closing the gateway failed');
    });
    if (!(await settlesWithin(closing, options.graceMillis))) {
      code = 1;
      log.warn('grace period over: closing the connections still open');
      gateway.app.server.closeAllConnections();
      if (!(await settlesWithin(closing, FORCE_CLOSE_MS))) log.error('the gateway did not close');
    }
    const afterClose = options.afterClose?.() ?? Promise.resolve();
    afterClose.catch((error: unknown) => {
      log.warn({ err: error }, 'stopping after close failed');
    });
    if (!(await settlesWithin(afterClose, AFTER_CLOSE_MS))) log.warn('stopping after close timed out');
    log.info({ code }, 'stopped');
    // The buffered lines leave now, on the event loop; a reader that is gone makes this write fail
    // (harmlessly) instead of the synchronous flush at exit.
    await settlesWithin(flushLog(log), LOG_FLUSH_MS);
    return code;
  }

  return (signal) => (running ??= shutdown(signal));
}

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
function startShutdownWatchdog(deadlineMillis: number): void {
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

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How long past the shutdown's own deadline the watchdog waits before it kills the process. */
const WATCHDOG_MARGIN_MS = 500;

/** Options of {@link handleStopSignals}. */
export interface StopSignalOptions {
  /** Runs the shutdown, resolving to the exit code (`createShutdown`). */
  shutdown: (signal: string) => Promise<number>;
  /** The longest the shutdown takes (`shutdownDeadlineMillis`). */
  deadlineMillis: number;
}

/** The exit code of a process ended by `signal`, as a shell reports it (143 for SIGTERM, 130 for SIGINT). */
function exitCodeOf(signal: NodeJS.Signals): number {
  return 128 + (signal === 'SIGINT' ? 2 : 15);
}

/**
 * Installs the handlers of SIGTERM and SIGINT. The first starts the shutdown; a second ends the process at
 * once through the kernel's default action, which needs no JavaScript to run (a shutdown that blocks the
 * event loop still ends). As PID 1 (the image run without an init) the kernel ignores a signal's default
 * action, so there the second signal is handled here instead: it ends the process unless the event loop is
 * blocked, which the watchdog then ends at the deadline.
 */
export function handleStopSignals(options: StopSignalOptions): void {
  const onSignal = (signal: NodeJS.Signals) => {
    for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
    if (process.pid === 1) {
      for (const name of STOP_SIGNALS) process.once(name, (second) => process.exit(exitCodeOf(second)));
    }
    try {
      startShutdownWatchdog(options.deadlineMillis + WATCHDOG_MARGIN_MS);
    } catch {
      // No thread to spare (resource limits): the shutdown's own deadlines and the second signal remain.
    }
    void options.shutdown(signal).then(
      (code) => process.exit(code),
      () => process.exit(1),
    );
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
}
