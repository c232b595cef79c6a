/**
 * Reading a write back as an upstream behind a lagging replica needs: re-read until the write shows, within a
 * bounded wait, and remember how long it took. A write that shows late is "reads lag writes" (the setting
 * `UPSTREAM_WRITE_READ_BACK_MS`), never a charset, an id or a field-form problem; one that never shows is
 * said as such, never blamed on the first cause that fits.
 */
import type { CheckContext } from '../../check-context.ts';

/** Longest the check waits for a write to read back: past it, it says what it saw, and no cause. */
export const READ_LAG_BUDGET_MILLIS = 10_000;

/** What the re-reads saw: the last value read, whether it showed the write, and after how long. */
export interface ReadUntil<T> {
  value: T;
  shown: boolean;
  waitedMillis: number;
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/**
 * Reads with `read` until `shows` holds or {@link READ_LAG_BUDGET_MILLIS} (at least the gateway's own
 * `UPSTREAM_WRITE_READ_BACK_MS`) have passed; records the wait in `context.learnt.readLag`.
 */
export async function readUntil<T>(
  context: Pick<CheckContext, 'config' | 'learnt'>,
  read: () => Promise<T>,
  shows: (value: T) => boolean,
): Promise<ReadUntil<T>> {
  const budget = Math.max(READ_LAG_BUDGET_MILLIS, context.config.writeReadBackMillis);
  const started = Date.now();
  let pause = 50;
  let value = await read();
  while (!shows(value) && Date.now() - started < budget) {
    await sleep(pause);
    pause = Math.min(pause * 2, 500);
    value = await read();
  }
  const shown = shows(value);
  const waitedMillis = Date.now() - started;
  const lag = context.learnt.readLag ?? { longestMillis: 0, unseen: 0 };
  context.learnt.readLag = shown
    ? { ...lag, longestMillis: Math.max(lag.longestMillis, waitedMillis) }
    : { ...lag, unseen: lag.unseen + 1 };
  return { value, shown, waitedMillis };
}

/** The sentence for a write that never read back as written, and the setting it concerns. */
export function unseenWrite(what: string): string {
  return `${what} did not read back as written within ${READ_LAG_BUDGET_MILLIS / 1000} s of re-reading: the upstream's reads lag its writes by more than that, or the write did not do what it answered; the check cannot tell which (UPSTREAM_WRITE_READ_BACK_MS is how long the gateway waits)`;
}

/** The finding on how long writes take to read back, after the write probes. */
export function readLagFinding(context: Pick<CheckContext, 'config' | 'learnt'>) {
  const topic = 'reads after writes';
  const lag = context.learnt.readLag;
  const configured = context.config.writeReadBackMillis;
  if (lag === undefined) {
    return { topic, verdict: 'cannot-tell' as const, detail: 'no write was read back' };
  }
  if (lag.unseen > 0) {
    return {
      topic,
      verdict: 'cannot-tell' as const,
      detail: `${lag.unseen} write(s) never read back as written within ${READ_LAG_BUDGET_MILLIS / 1000} s (see the rows above): reads lag writes by more than that, or the writes were not applied as answered`,
    };
  }
  if (lag.longestMillis < 100) {
    return {
      topic,
      verdict: 'as-assumed' as const,
      detail: 'every write read back at once',
      settings: { UPSTREAM_WRITE_READ_BACK_MS: String(configured) },
    };
  }
  // Twice the lag seen, in whole 100 ms: one run sees one lag, a busier replica lags more.
  const needed = Math.min(60_000, Math.ceil((lag.longestMillis * 2) / 100) * 100);
  const enough = needed <= configured;
  return {
    topic,
    verdict: enough ? ('as-assumed' as const) : ('differs' as const),
    detail: `reads lag writes: a write read back only after ${lag.longestMillis} ms of re-reading (a replica behind the primary)${enough ? `; UPSTREAM_WRITE_READ_BACK_MS=${configured} waits long enough` : ''}`,
    settings: { UPSTREAM_WRITE_READ_BACK_MS: String(enough ? configured : needed) },
  };
}
