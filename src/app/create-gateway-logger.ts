/** Assembly step: the gateway's logger, told every secret of the settings so no line can print one. */
import type { Logger } from 'pino';
import { redisPassword } from '../auth/redis-connection.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createLogger } from '../observability/logger.ts';

/** The logger at `LOG_LEVEL`, writing to `stream` (tests) or stdout. */
export function createGatewayLogger(config: GatewayConfig, stream?: NodeJS.WritableStream): Logger {
  return createLogger({
    level: config.logLevel,
    levelFormat: config.logLevelFormat,
    stream,
    secrets: [config.sessionSecret, config.sessionSecretPrevious, redisPassword(config.redisUrl)],
  });
}
