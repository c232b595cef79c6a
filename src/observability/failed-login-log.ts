/**
 * Failed logins in the log, summed up per client address and period: the first failed login of an address
 * in a period is logged as every failed request is; the next ones of that period are only counted, and
 * {@link FailedLoginLog.flush} (every period) writes one line per address with its count. A guessing flood
 * from one connection (about 650 failures a second) then writes one line a minute instead of one per guess,
 * and an operator still sees at once that an address started failing. The addresses of one period are
 * bounded: past `maxAddresses`, further addresses are counted together in one line.
 */

/** A summary line's fields: the address (or `undefined` for the addresses past the bound) and its count. */
export interface FailedLoginSummary {
  clientIp: string | undefined;
  /** Failed logins of the period not logged on their own. */
  count: number;
  periodSeconds: number;
}

/** Options of {@link createFailedLoginLog}. */
export interface FailedLoginLogOptions {
  /** Writes one summary line. */
  write(summary: FailedLoginSummary): void;
  /** The period, in milliseconds. Default one minute. */
  periodMillis?: number;
  /** Addresses remembered in one period. Default 10,000. */
  maxAddresses?: number;
}

/** See {@link createFailedLoginLog}. */
export interface FailedLoginLog {
  /** Whether this failed login of `clientIp` is logged on its own now (the first of its address this period). */
  admit(clientIp: string): boolean;
  /** Writes the period's summaries and starts a new period (called every period, and at close). */
  flush(): void;
  /** Stops the period timer and writes what is left. */
  close(): void;
}

/** Creates the summary and starts its period timer (which never keeps the process alive). */
export function createFailedLoginLog(options: FailedLoginLogOptions): FailedLoginLog {
  const periodMillis = options.periodMillis ?? 60_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  let counts = new Map<string, number>();
  let beyond = 0;

  function flush(): void {
    const periodSeconds = periodMillis / 1000;
    const ended = counts;
    counts = new Map();
    for (const [clientIp, count] of ended) {
      if (count > 0) options.write({ clientIp, count, periodSeconds });
    }
    if (beyond > 0) options.write({ clientIp: undefined, count: beyond, periodSeconds });
    beyond = 0;
  }

  const timer = setInterval(flush, periodMillis);
  timer.unref();

  return {
    admit(clientIp) {
      const count = counts.get(clientIp);
      if (count !== undefined) {
        counts.set(clientIp, count + 1);
        return false;
      }
      if (counts.size >= maxAddresses) {
        beyond += 1;
        return false;
      }
      counts.set(clientIp, 0);
      return true;
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
  };
}
