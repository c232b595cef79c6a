/** Assembly step: the gateway's logger, told every secret of the settings so no line can print one. */
import type { Logger } from 'pino';
import { redisPassword } from '../auth/redis-connection.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createLogger } from '../observability/logger.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';

/** The logger at `LOG_LEVEL`, writing to `stream` (tests) or stdout; lines inside a span name it. */
export function createGatewayLogger(
  config: GatewayConfig,
  stream?: NodeJS.WritableStream,
  tracing?: GatewayTracing,
): Logger {
  return createLogger({
    level: config.logLevel,
    levelFormat: config.logLevelFormat,
    traceContext: tracing === undefined ? undefined : () => tracing.currentTraceContext(),
    stream,
    secrets: [config.sessionSecret, config.sessionSecretPrevious, redisPassword(config.redisUrl)],
  });
}
