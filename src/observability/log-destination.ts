/**
 * Where the gateway's log lines go by default: stdout, buffered, and never able to hold the process at exit.
 *
 * Lines are gathered up to 4 KiB (or 1 s) per write instead of one blocking write per request: under load
 * that write was a tenth of a small request's CPU. pino flushes the buffer synchronously on exit. That flush
 * is where a supervisor that signals the process and closes its end of the stdout pipe (a test harness,
 * some process managers, `docker stop` with a log driver gone) used to hang the gateway for good: sonic-boom
 * 4 retried a write failing with EPIPE every 100 ms forever (`Atomics.wait`, a futex no signal interrupts),
 * whenever the exit flush was the first write after the pipe closed. sonic-boom 5 (the
 * `overrides` of package.json) throws instead, and bounds the retries of a full pipe (`maxWriteRetries`);
 * what it throws at exit is dropped here, since a reader that is gone cannot receive the lines anyway.
 */
import { pino } from 'pino';

/** pino's destination stream (a sonic-boom). */
type Destination = ReturnType<typeof pino.destination>;

/** How often a full pipe (EAGAIN) is retried, 100 ms apart, before the lines are given up: 2 s. */
const MAX_WRITE_RETRIES = 20;

/** Creates the stdout destination of {@link createLogger}'s default. */
export function createLogDestination(): Destination {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    periodicFlush: 1000,
    maxWriteRetries: MAX_WRITE_RETRIES,
  });
  const flushSync = destination.flushSync.bind(destination);
  destination.flushSync = () => {
    try {
      flushSync();
    } catch {
      // EPIPE (the reader is gone) or a pipe still full after the retries: the lines are lost, the exit is not.
    }
  };
  return destination;
}
