/**
 * Failed logins in the log, summed up per client network and period: the first failed login of a network
 * (an IPv4 address, an IPv6 /64) in a period is logged as every failed request is; the next ones of that
 * period are only counted, by reason, and {@link FailedLoginLog.flush} (every period) writes one line per
 * network with its counts. A guessing flood from one connection (about 650 failures a second) then writes
 * one line a minute instead of one per guess, and an operator still sees at once that a network started
 * failing, and whether its logins are now refused by a block. The networks of one period are bounded: past
 * `maxAddresses`, further networks are counted together in one line.
 */

/** A summary line's fields: the network (or `undefined` for those past the bound) and its counts. */
export interface FailedLoginSummary {
  clientNetwork: string | undefined;
  /** Failed logins of the period not logged on their own. */
  count: number;
  /** Of those, how many failed for each reason (`rejected`, `blocked`, `login_share`). */
  reasons: Record<string, number>;
  periodSeconds: number;
}

/** Options of {@link createFailedLoginLog}. */
export interface FailedLoginLogOptions {
  /** Writes one summary line. */
  write(summary: FailedLoginSummary): void;
  /** The period, in milliseconds. Default one minute. */
  periodMillis?: number;
  /** Networks remembered in one period. Default 10,000. */
  maxAddresses?: number;
}

/** See {@link createFailedLoginLog}. */
export interface FailedLoginLog {
  /** Whether this failed login from `network` is logged on its own now (the first of its network this period). */
  admit(network: string, reason: string): boolean;
  /** Writes the period's summaries and starts a new period (called every period, and at close). */
  flush(): void;
  /** Stops the period timer and writes what is left. */
  close(): void;
}

/** Creates the summary and starts its period timer (which never keeps the process alive). */
export function createFailedLoginLog(options: FailedLoginLogOptions): FailedLoginLog {
  const periodMillis = options.periodMillis ?? 60_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  let counts = new Map<string, Tally>();
  let beyond = newTally();

  function flush(): void {
    const periodSeconds = periodMillis / 1000;
    const ended = counts;
    counts = new Map();
    for (const [clientNetwork, { count, reasons }] of ended) {
      if (count > 0) options.write({ clientNetwork, count, reasons, periodSeconds });
    }
    if (beyond.count > 0) options.write({ clientNetwork: undefined, ...beyond, periodSeconds });
    beyond = newTally();
  }

  const timer = setInterval(flush, periodMillis);
  timer.unref();

  return {
    admit(network, reason) {
      const tally = counts.get(network);
      if (tally !== undefined) {
        add(tally, reason);
        return false;
      }
      if (counts.size >= maxAddresses) {
        add(beyond, reason);
        return false;
      }
      counts.set(network, newTally());
      return true;
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
  };
}

/** A network's failed logins not logged on their own, by reason (a handful of reasons: bounded). */
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
