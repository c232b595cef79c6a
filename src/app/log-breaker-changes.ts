/** Assembly step: upstream circuit breakers' transitions, as log lines an operator can follow. */
import type { Logger } from 'pino';

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
