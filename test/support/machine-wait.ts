/**
 * What the machine itself takes from a victim's request while a flood runs. The fair-share tests run the
 * gateway, its upstream, the flood's client and the victim on one machine's two cores; beside other work
 * (CI's neighbours, a load of 6), the operating system's scheduler keeps every process off a CPU now and
 * then, the gateway's or not. A process kept busy by a flood competes for the cores with whatever else
 * runs, and at a load of 6 waits several of the scheduler's slices for each one it gets: a request that
 * arrives meanwhile waits with it, however fairly the gateway then orders its work.
 *
 * So each request is measured with the time its parties (the victim's own thread, the gateway's JavaScript
 * thread, the upstream's) were runnable but not running while it was in flight: Linux's run-queue delay,
 * `/proc/…/schedstat`. Time the gateway was not running is not time it gave to the flood; its fairness is
 * measured by what remains. The parties' waits may overlap, or fall while the request was elsewhere, so
 * this allows at most what the machine took from them, never less; on a quiet machine it is a few
 * milliseconds. Elsewhere than Linux it reads 0 and allows nothing.
 */
import { readFileSync } from 'node:fs';
import { p95 } from './p95.ts';

/**
 * Milliseconds a thread has waited, runnable, for a CPU since it started: the second field of its
 * `schedstat` (nanoseconds). `path`: `/proc/PID/schedstat` for a process's main thread (a Node process's
 * JavaScript), `/proc/thread-self/schedstat` for the calling thread. 0 where the kernel keeps none.
 */
function runQueueMillis(path: string): number {
  try {
    return Number(readFileSync(path, 'utf8').split(' ')[1] ?? 0) / 1e6 || 0;
  } catch {
    return 0;
  }
}

/** What {@link timedWithMachineWait} measured. */
export interface MachineTimed<T> {
  answer: T;
  /** Milliseconds from the call to its answer. */
  elapsedMillis: number;
  /** Milliseconds the calling thread and the processes `pids` waited, runnable, for a CPU meanwhile. */
  machineMillis: number;
}

/** Runs `request` (the victim's, served by the processes `pids`), measuring what the machine took meanwhile. */
export async function timedWithMachineWait<T>(
  pids: readonly number[],
  request: () => Promise<T>,
): Promise<MachineTimed<T>> {
  const paths = ['/proc/thread-self/schedstat', ...pids.map((pid) => `/proc/${String(pid)}/schedstat`)];
  const waited = () => paths.reduce((sum, path) => sum + runQueueMillis(path), 0);
  const waitedBefore = waited();
  const started = performance.now();
  const answer = await request();
  const elapsedMillis = performance.now() - started;
  return { answer, elapsedMillis, machineMillis: waited() - waitedBefore };
}

/** Requests of one window: how long each took, and what the machine took from each meanwhile. */
export interface MachineTimings {
  elapsed: number[];
  machine: number[];
}

/** Records one request's timing into `window`, answering what it answered. */
export function record<T>(window: MachineTimings, timed: MachineTimed<T>): T {
  window.elapsed.push(timed.elapsedMillis);
  window.machine.push(timed.machineMillis);
  return timed.answer;
}

/** The p95 of the window's requests, each less what the machine took from it (at least 0). */
export function p95LessMachine(window: MachineTimings): number {
  return p95(window.elapsed.map((millis, i) => Math.max(0, millis - (window.machine[i] ?? 0))));
}

/** A window's p95, its p95 less the machine's, and the machine's own p95, for a test's report. */
export function describeWindow(window: MachineTimings): string {
  return (
    `p95 ${p95(window.elapsed).toFixed(1)} ms (less the machine's ${p95LessMachine(window).toFixed(1)} ms; ` +
    `the machine took a p95 of ${p95(window.machine).toFixed(1)} ms)`
  );
}
