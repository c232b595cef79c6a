/**
 * Every awaited step of the shutdown has a deadline (`src/app/shutdown.ts`): a gateway whose close never
 * settles, an `afterClose` that hangs, a logger whose flush never calls back — the shutdown still resolves,
 * within `shutdownDeadlineMillis`, with the exit code that says something was cut.
 */
import { expect, it } from 'vitest';
import { createShutdown, shutdownDeadlineMillis, type ShutdownOptions } from '../../src/app/shutdown.ts';

const never = new Promise<void>(() => undefined);

/** A gateway stand-in recording what the shutdown did to it. */
function fakeGateway(close: () => Promise<void>) {
  const done: string[] = [];
  const lines: string[] = [];
  const log = {
    info: (_object: unknown, message?: string) => lines.push(`info ${message ?? String(_object)}`),
    warn: (object: unknown, message?: string) => lines.push(`warn ${message ?? String(object)}`),
    error: (object: unknown, message?: string) => lines.push(`error ${message ?? String(object)}`),
    // A flush whose callback never comes (a log reader that is gone, a stuck write).
    flush: () => undefined,
  };
  const gateway = {
    app: { log, server: { closeAllConnections: () => done.push('closeAllConnections') } },
    startDraining: () => done.push('startDraining'),
    close,
  } as unknown as ShutdownOptions['gateway'];
  return { gateway, done, lines };
}

it('should finish when every step hangs, within its deadline, and exit 1', async () => {
  const { gateway, done, lines } = fakeGateway(() => never);
  const graceMillis = 100;
  const shutdown = createShutdown({ gateway, delayMillis: 0, graceMillis, afterClose: () => never });
  const started = Date.now();
  expect(await shutdown('SIGTERM')).toBe(1);
  const took = Date.now() - started;
  // Bounded: without a deadline at some step it would wait for ever (here: until the test's limit). The
  // slack is for a loaded machine, whose timers fire late.
  expect(took).toBeLessThanOrEqual(shutdownDeadlineMillis(0, graceMillis) + 30_000);
  expect(done).toEqual(['startDraining', 'closeAllConnections']);
  expect(lines).toEqual([
    'info draining',
    'warn grace period over: closing the connections still open',
    'error the gateway did not close',
    'warn stopping after close timed out',
    'info stopped',
  ]);
});

it('should exit 1 when closing fails, and still run afterClose', async () => {
  const { gateway, lines } = fakeGateway(() => Promise.reject(new Error('boom')));
  let afterClose = false;
  const shutdown = createShutdown({
    gateway,
    delayMillis: 0,
    graceMillis: 1_000,
    afterClose: () => {
      afterClose = true;
      return Promise.resolve();
    },
  });
  expect(await shutdown('SIGTERM')).toBe(1);
  expect(afterClose).toBe(true);
  expect(lines).toContain('error closing the gateway failed');
});

it('should exit 0 when everything closes in time, and answer later calls with the first result', async () => {
  const { gateway, done } = fakeGateway(() => Promise.resolve());
  const shutdown = createShutdown({ gateway, delayMillis: 0, graceMillis: 1_000 });
  const first = shutdown('SIGTERM');
  expect(shutdown('SIGINT')).toBe(first);
  expect(await first).toBe(0);
  expect(done).toEqual(['startDraining']);
});
