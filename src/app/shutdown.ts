/**
 * Graceful shutdown on SIGTERM (what Kubernetes sends before it stops a pod):
 *
 * 1. readiness flips first: `/readyz` answers 503 "draining" while requests are still served, for
 *    `delayMillis` (`SHUTDOWN_DELAY_MS`), so load balancers stop sending new work;
 * 2. the listener closes: new connections are refused, idle keep-alive connections close, and requests in
 *    flight (a save included: it is never cut) finish, for at most `graceMillis` (`SHUTDOWN_GRACE_MS`);
 * 3. after the grace period, remaining connections are closed by force;
 * 4. the exit code is 0 when everything finished in time, 1 when something had to be cut.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Gateway } from './create-gateway.ts';

/** Options of {@link createShutdown}. */
export interface ShutdownOptions {
  gateway: Pick<Gateway, 'app' | 'startDraining' | 'close'>;
  /** `SHUTDOWN_DELAY_MS`: draining before the listener closes. Default in config: 0. */
  delayMillis: number;
  /** `SHUTDOWN_GRACE_MS`: the longest in-flight requests may take. Default in config: 10_000. */
  graceMillis: number;
  /** Runs once the gateway has closed (the embedded emulator stops here). */
  afterClose?: () => Promise<void>;
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
    const timer = new AbortController();
    const inTime = await Promise.race([
      closing.then(() => true),
      sleep(options.graceMillis, false, { signal: timer.signal }).catch(() => false),
    ]);
    timer.abort();
    if (!inTime) {
      code = 1;
      log.warn('grace period over: closing the connections still open');
      gateway.app.server.closeAllConnections();
      await Promise.race([closing.catch(() => undefined), sleep(2_000)]);
    }
    await closing.catch((error: unknown) => {
      code = 1;
      log.error({ err: error }, 'closing the gateway failed');
    });
    await options.afterClose?.();
    log.info({ code }, 'stopped');
    return code;
  }

  return (signal) => (running ??= shutdown(signal));
}
