/**
 * Failures in the log, summed up per key and period: the first failure of a key in a period is logged as
 * every failed request is; the next ones of that period are only counted, by reason, and
 * {@link PeriodSummary.flush} (every period) writes one line per key with its counts. Keys are client
 * networks for failed logins (a guessing flood from one connection, about 650 failures a second, writes one
 * line a minute instead of one per guess) and operations for requests failed by the upstream's ill health
 * (an outage writes a line per operation a minute, not one per request). An operator still sees at once that
 * something started failing, and why. The keys of one period are bounded: past `maxKeys`, further keys are
 * counted together in one line.
 */

/** A summary line's fields: the key (or `undefined` for those past the bound) and its counts. */
export interface PeriodSummaryLine {
  key: string | undefined;
  /** Failures of the period not logged on their own. */
  count: number;
  /** Of those, how many failed for each reason (a login's `rejected`, `blocked`; a request's error code). */
  reasons: Record<string, number>;
  periodSeconds: number;
}

/** Options of {@link createPeriodSummary}. */
export interface PeriodSummaryOptions {
  /** Writes one summary line. */
  write(summary: PeriodSummaryLine): void;
  /** The period, in milliseconds. Default one minute. */
  periodMillis?: number | undefined;
  /** Keys remembered in one period. Default 10,000. */
  maxKeys?: number;
}

/** See {@link createPeriodSummary}. */
export interface PeriodSummary {
  /** Whether this failure of `key` is logged on its own now (the first of its key this period). */
  admit(key: string, reason: string): boolean;
  /** Writes the period's summaries and starts a new period (called every period, and at close). */
  flush(): void;
  /** Stops the period timer and writes what is left. */
  close(): void;
}

/** Creates the summary and starts its period timer (which never keeps the process alive). */
export function createPeriodSummary(options: PeriodSummaryOptions): PeriodSummary {
  const periodMillis = options.periodMillis ?? 60_000;
  const maxKeys = options.maxKeys ?? 10_000;
  let counts = new Map<string, Tally>();
  let beyond = newTally();

  function flush(): void {
    const periodSeconds = periodMillis / 1000;
    const ended = counts;
    counts = new Map();
    for (const [key, { count, reasons }] of ended) {
      if (count > 0) options.write({ key, count, reasons, periodSeconds });
    }
    if (beyond.count > 0) options.write({ key: undefined, ...beyond, periodSeconds });
    beyond = newTally();
  }

  const timer = setInterval(flush, periodMillis);
  timer.unref();

  return {
    admit(key, reason) {
      const tally = counts.get(key);
      if (tally !== undefined) {
        add(tally, reason);
        return false;
      }
      if (counts.size >= maxKeys) {
        add(beyond, reason);
        return false;
      }
      counts.set(key, newTally());
      return true;
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
  };
}

/** A key's failures not logged on their own, by reason (a handful of reasons: bounded). */
interface Tally {
  count: number;
  reasons: Record<string, number>;
}

function newTally(): Tally {
  return { count: 0, reasons: {} };
}

function add(tally: Tally, reason: string): void {
  tally.count += 1;
  tally.reasons[reason] = (tally.reasons[reason] ?? 0) + 1;
}
