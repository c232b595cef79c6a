/**
 * Upstream failures in the log, with their reason, at a rate that does not flood: the first failure of
 * each operation and kind in a period (a minute) is written at once, with the kind (`timeout`,
 * `unavailable`, `bad_response`, `circuit_open`, …) and the gateway's own words for it (`connection
 * refused`, `no response headers within 5000 ms`, `circuit open`); the next ones of that period are only
 * counted, and one line per operation and kind sums them up when the period ends. An outage of the
 * upstream then writes a few lines a minute, however many requests fail; the request lines say which
 * requests failed. Operations and kinds are fixed sets, so the period's keys are bounded.
 *
 * Only what is on-call's: the upstream's ill health and refusals at `warn`, the gateway's own failures at
 * `error` (`LOG_LEVEL_OF_BLAME`); a caller's mistakes (`invalid_input`, `unauthenticated`, …) are not.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  LOG_LEVEL_OF_BLAME,
  UPSTREAM_KIND_CODE,
  blameOfCode,
  type UpstreamErrorKind,
} from '../errors/blame.ts';

/** One failed (or refused) upstream call. */
export interface UpstreamFailure {
  operation: string;
  /** The `UpstreamError` kind, or the guard's refusal (`circuit_open`, `overloaded`, …). */
  kind: string;
  /** What the gateway knows of why (never a URL, a token or a password). */
  detail?: string | undefined;
}

/** Options of {@link createUpstreamFailureLog}. */
export interface UpstreamFailureLogOptions {
  /** The period over which failures of one operation and kind are summed up. Default a minute. */
  periodMillis?: number | undefined;
}

/** See {@link createUpstreamFailureLog}. */
export interface UpstreamFailureLog {
  /** Logs, or counts, one failure. */
  failed(failure: UpstreamFailure): void;
  /** Stops the period timer and writes what is left. */
  close(): void;
}

/** The level of a failure of `kind`, or `undefined` when it is the caller's (not logged here). */
function levelOfKind(kind: string): 'warn' | 'error' | undefined {
  if (!Object.hasOwn(UPSTREAM_KIND_CODE, kind)) return undefined;
  return LOG_LEVEL_OF_BLAME[blameOfCode(UPSTREAM_KIND_CODE[kind as UpstreamErrorKind], kind)];
}

/** Creates the log and starts its period timer (which never keeps the process alive). */
export function createUpstreamFailureLog(
  log: FastifyBaseLogger,
  options: UpstreamFailureLogOptions = {},
): UpstreamFailureLog {
  const periodMillis = options.periodMillis ?? 60_000;
  let counts = new Map<string, { operation: string; kind: string; level: 'warn' | 'error'; count: number }>();

  function flush(): void {
    const ended = counts;
    counts = new Map();
    for (const { operation, kind, level, count } of ended.values()) {
      if (count > 0) {
        log[level](
          { operation, reason: kind, count, periodSeconds: periodMillis / 1000 },
          'upstream call failures, summed up',
        );
      }
    }
  }

  const timer = setInterval(flush, periodMillis);
  timer.unref();

  return {
    failed({ operation, kind, detail }) {
      const level = levelOfKind(kind);
      if (level === undefined) return;
      const key = `${operation}\u0000${kind}`;
      const seen = counts.get(key);
      if (seen !== undefined) {
        seen.count += 1;
        return;
      }
      counts.set(key, { operation, kind, level, count: 0 });
      log[level]({ operation, reason: kind, detail }, 'upstream call failed');
    },
    close() {
      clearInterval(timer);
      flush();
    },
  };
}
