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

/** What {@link logBreakerChanges} keeps of an origin's outage. */
interface Outage {
  startedAt: number;
  /** Half-open probes that failed (the breaker opened again) since the last line. */
  failedProbes: number;
  /** All of them, for the closing line. */
  failedProbesInAll: number;
}

/**
 * A breaker listener that logs an outage in a few lines, however long it lasts: the breaker opening (warn),
 * then, while it stays away from `closed`, one line a period summing the half-open probes that failed (a hung
 * upstream flaps open and half-open every few seconds: two lines each time, per replica, buried everything
 * else), and its closing (info) with how long the outage lasted. An origin's first `closed` is no news.
 */
export function logBreakerChanges(
  logger: Logger,
  periodMillis = 60_000,
): (origin: string, state: string) => void {
  const seen = new Map<string, string>();
  const outages = new Map<string, Outage>();
  const summarize = (): void => {
    for (const [origin, outage] of outages) {
      if (outage.failedProbes === 0) continue;
      logger.warn(
        { origin, failedProbes: outage.failedProbes, periodSeconds: periodMillis / 1000 },
        `upstream circuit breaker still open: ${String(outage.failedProbes)} half-open probes failed`,
      );
      outage.failedProbes = 0;
    }
  };
  setInterval(summarize, periodMillis).unref();
  return (origin, state) => {
    const before = seen.get(origin);
    seen.set(origin, state);
    if (before === undefined && state === 'closed') return;
    const outage = outages.get(origin);
    if (state === 'closed') {
      outages.delete(origin);
      const outageSeconds = outage === undefined ? 0 : Math.round((Date.now() - outage.startedAt) / 1000);
      logger.info(
        { origin, state, outageSeconds, failedProbes: outage?.failedProbesInAll ?? 0 },
        'upstream circuit breaker closed',
      );
    } else if (outage === undefined) {
      outages.set(origin, { startedAt: Date.now(), failedProbes: 0, failedProbesInAll: 0 });
      logger.warn({ origin, state }, `upstream circuit breaker ${state.replace('_', '-')}`);
    } else if (state === 'open' && before === 'half_open') {
      outage.failedProbes += 1;
      outage.failedProbesInAll += 1;
    }
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
