/**
 * The real command (`node src/main.ts`) on the tests' demo types, exporting its spans to an OTLP receiver:
 * how every tracing test of `test/observability/` starts the gateway whose spans it reads.
 */
import { startGatewayCommand, type GatewayCommand } from '../../support/gateway-command.ts';
import { DEMO_OBJECTS_DIR } from './object-fixtures.ts';
import { otlpExportEnv } from './otlp-export-env.ts';
import type { OtlpReceiver } from './otlp-receiver.ts';

/** Starts the command in front of `upstreamUrl`, exporting to `receiver`, with `env` over the export's. */
export function startTracedGatewayCommand(
  upstreamUrl: string,
  receiver: Pick<OtlpReceiver, 'url'>,
  env: Record<string, string> = {},
): Promise<GatewayCommand> {
  return startGatewayCommand({
    upstreamUrl,
    objectTypesDir: DEMO_OBJECTS_DIR,
    env: { ...otlpExportEnv(receiver), ...env },
  });
}
