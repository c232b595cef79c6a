/**
 * Assembly of a gateway process, shared by `npm start` (`src/main.ts`) and `npm run example`: the embedded
 * emulator when no upstream is set (`start-embedded-emulator.ts`), the gateway (`create-gateway.ts`), its
 * listener, and the graceful shutdown on SIGTERM/SIGINT (`shutdown.ts`). What each command adds (the
 * banner, the example's page) is its own.
 */
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
import { emptyOnHangup } from '../cache/empty-on-hangup.ts';
import { createGateway, type Gateway } from './create-gateway.ts';
import { createShutdown, handleStopSignals, shutdownDeadlineMillis } from './shutdown.ts';
import { startEmbeddedEmulator, type EmbeddedEmulator } from './start-embedded-emulator.ts';
import { addressInUseLine, isAddressInUse, StartProblem } from './start-problem.ts';

/** Options of {@link runGateway}. */
export interface RunGatewayOptions {
  config: GatewayConfig;
  /** OpenTelemetry, when the `OTEL_*` variables switched it on; shut down last. */
  tracing?: GatewayTracing | undefined;
  /** Stops what the command added (the example's page) once the gateway has closed. */
  afterClose?: () => Promise<void>;
}

/** A listening gateway whose stop signals are handled. */
export interface RunningGateway {
  gateway: Gateway;
  /** Its base URL (`http://host:port`). */
  url: string;
  /** The embedded emulator, when no upstream address is set. */
  emulator: EmbeddedEmulator | undefined;
}

/**
 * Starts the embedded emulator (when the settings name no upstream), the gateway and its listener, and
 * installs the SIGTERM/SIGINT handlers. Answers once the handlers are in place: whoever waits for the
 * caller's banner may signal at once, and must find them rather than Node's default, which would kill the
 * process without a drain.
 * @throws StartProblem naming `PORT` (or `EMULATOR_PORT`) when a port is busy.
 */
export async function runGateway(options: RunGatewayOptions): Promise<RunningGateway> {
  const { config, tracing } = options;
  const emulator =
    config.upstream.kind === 'embedded'
      ? await startEmbeddedEmulator(config, config.upstream.emulatorPort)
      : undefined;
  const gateway = await createGateway({
    config: emulator?.config ?? config,
    ...(tracing ? { tracing } : {}),
  });
  const url = await gateway.listen().catch(async (error: unknown) => {
    await emulator?.close();
    throw isAddressInUse(error)
      ? new StartProblem(addressInUseLine('gateway', config.host, config.port, 'PORT'))
      : error;
  });
  // A promise rejected with nobody listening is a bug (ours or a package's). Node's default ends the process,
  // and every caller's requests with it: one request's bug must not cost the others. Logged and counted.
  process.on('unhandledRejection', (reason) => {
    gateway.metrics.countUnhandledRejection();
    gateway.app.log.error({ err: reason }, 'unhandled promise rejection (a bug): logged, still serving');
  });
  if (config.production && emulator !== undefined) {
    gateway.app.log.warn(
      { upstream: 'emulator' },
      'production gateway running on the embedded demo emulator',
    );
  }
  const shutdown = createShutdown({
    gateway,
    delayMillis: config.shutdown.delayMillis,
    graceMillis: config.shutdown.graceMillis,
    afterClose: async () => {
      const stopped = await Promise.allSettled([options.afterClose?.(), emulator?.close()]);
      // The last spans (the shutdown's own requests included) leave before the process does.
      await tracing?.shutdown().catch(() => undefined);
      // A failure is the shutdown's to log.
      for (const result of stopped) if (result.status === 'rejected') throw result.reason;
    },
  });
  handleStopSignals({
    shutdown,
    deadlineMillis: shutdownDeadlineMillis(config.shutdown.delayMillis, config.shutdown.graceMillis),
  });
  if (gateway.services.cache !== undefined) emptyOnHangup(gateway.services.cache, gateway.app.log);
  return { gateway, url, emulator };
}
