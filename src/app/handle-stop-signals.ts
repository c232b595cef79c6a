/**
 * SIGTERM and SIGINT start the shutdown once; a second signal ends the process at once. That second
 * signal must work even when the event loop is blocked, so it is not left to a JavaScript handler: the
 * first signal removes the handlers, which gives both signals back their default action (the kernel ends
 * the process), and starts a watchdog thread that kills the process if the shutdown outlives its deadline.
 */
import { startShutdownWatchdog } from './shutdown-watchdog.ts';

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

/** Installs the handlers of SIGTERM and SIGINT. */
export function handleStopSignals(options: StopSignalOptions): void {
  const onSignal = (signal: NodeJS.Signals) => {
    for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
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
