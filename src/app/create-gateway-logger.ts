/**
 * Assembly step: the gateway's logger, told every secret of the settings so no line can print one, and the
 * upstream circuit breakers' transitions as log lines an operator can follow.
 */
import type { Logger } from 'pino';
import { redisPassword } from '../auth/redis/redis-connection.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createLogger } from '../observability/logger.ts';
import type { TraceContext } from '../observability/tracing/tracing.ts';

/**
 * The logger at `LOG_LEVEL`, writing to `stream` (tests) or stdout; with tracing on, lines written inside a
 * request name its server span (`traceContext`: the request scope's).
 */
export function createGatewayLogger(
  config: GatewayConfig,
  stream?: NodeJS.WritableStream,
  traceContext?: () => TraceContext | undefined,
): Logger {
  return createLogger({
    level: config.logLevel,
    levelFormat: config.logLevelFormat,
    traceContext,
    stream,
    secrets: [config.sessionSecret, config.sessionSecretPrevious, redisPassword(config.redisUrl)],
  });
}

/**
 * A breaker listener that logs every transition, closing included (an operator reading the log sees when an
 * outage ended), except an origin's first `closed`, which is no news.
 */
export function logBreakerChanges(logger: Logger): (origin: string, state: string) => void {
  const seen = new Map<string, string>();
  return (origin, state) => {
    const before = seen.get(origin);
    seen.set(origin, state);
    if (before === undefined && state === 'closed') return;
    if (state === 'closed') logger.info({ origin, state }, 'upstream circuit breaker closed');
    else logger.warn({ origin, state }, `upstream circuit breaker ${state.replace('_', '-')}`);
  };
}

/**
 * Logs each assumption about the upstream that an answer contradicted (`UPSTREAM_DIALECT_MISMATCH`) once per
 * process, at `error`: the upstream answers so every time, so one line tells the operator which setting to
 * change, and a thousand more would bury it.
 */
export function logDialectMismatches(
  logger: Logger,
): (mismatch: { assumption: string; setting: string; message: string }) => void {
  const seen = new Set<string>();
  return ({ assumption, setting, message }) => {
    if (seen.has(assumption)) return;
    seen.add(assumption);
    logger.error({ assumption, setting }, `upstream dialect mismatch: ${message}`);
  };
}
