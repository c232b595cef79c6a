/**
 * A victim's reads beside a flood, for the fair-share tests: the reads, one after the other from another
 * address, in alternating windows without and with the flood (paused, then resumed), so that whatever else
 * loads the machine loads both alike; each p95 is taken over all windows of its kind. The promise the
 * product makes: under the flood the victim's p95 stays within three times its quiet p95, and no read fails.
 * What the machine's scheduler adds meanwhile to any process's round trip (`machine-probe.ts`) is measured
 * in the same windows and allowed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { fetchFrom } from './fetch-from.ts';
import { startKeepAliveFlood, type KeepAliveFlood, type KeepAliveFloodOptions } from './keep-alive-flood.ts';
import { startMachineProbe } from './machine-probe.ts';
import { LOAN_TYPES, postGraphql } from './post-graphql.ts';

/** Windows of each kind, and the victim's reads in each. */
const ROUNDS = 5;
const READS_PER_WINDOW = 25;

export function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

/** What the victim saw. */
export interface VictimLatencies {
  quiet: number[];
  loud: number[];
  /** Every answer that was not data. */
  failures: string[];
  /** The machine probe's round trips after each quiet read, and after each read under the flood. */
  probeQuiet: number[];
  probeLoud: number[];
}

/** What the machine added to a round trip under the flood: the probe's p95 less its quiet p95, at least 0. */
export function machineAddedMillis(latencies: VictimLatencies): number {
  return Math.max(0, p95(latencies.probeLoud) - p95(latencies.probeQuiet));
}

/** How the victim reads, beside which flood. */
export interface VictimOptions {
  /**
   * For two replicas on this machine's two cores (deployed, each has its own), the time the machine itself
   * adds when both replicas and the attacker's thread run at once; the 3× bound of one replica is
   * `cpu-share-floods`'. Default 0.
   */
  sharedCoresMillis?: number;
  /** Each read on a connection of its own, opened for it and closed after it (a client without keep-alive). */
  connectionPerRead?: boolean;
  /** The pause between reads. Default 10 ms. */
  everyMillis?: number;
}

/** A flood the victim reads beside; `ready`, if given, settles once a resumed flood is at full strength. */
export type VictimFlood = KeepAliveFlood & { ready?: () => Promise<void> };

/**
 * The victim's reads, each at the next of `graphqlUrls` in turn (replicas behind a balancer), on keep-alive
 * connections or one connection per read. A read that throws (its connection closed unanswered) is a failure.
 */
async function victimBeside(
  flood: VictimFlood,
  graphqlUrls: readonly string[],
  headers: Record<string, string>,
  options: VictimOptions,
): Promise<VictimLatencies> {
  const kept = options.connectionPerRead === true ? undefined : fetchFrom('127.0.0.3');
  const result: VictimLatencies = { quiet: [], loud: [], failures: [], probeQuiet: [], probeLoud: [] };
  const probe = await startMachineProbe();
  let turn = 0;
  const read = async (url: string, into: number[], probed: number[]) => {
    const victim = kept ?? fetchFrom('127.0.0.3');
    try {
      const answer = await postGraphql(url, LOAN_TYPES, {}, headers, victim.fetch);
      into.push(answer.elapsedMillis);
      if (answer.status !== 200 || answer.errors !== undefined) {
        result.failures.push(`${String(answer.status)} ${JSON.stringify(answer.errors)}`);
      }
      probed.push(await probe.ping(victim.fetch));
    } catch (error) {
      result.failures.push(String(error));
    } finally {
      if (kept === undefined) await victim.close();
    }
  };
  const reads = async (into: number[], probed: number[]) => {
    for (let count = 0; count < READS_PER_WINDOW; count++) {
      await read(graphqlUrls[turn++ % graphqlUrls.length] ?? '', into, probed);
      await sleep(options.everyMillis ?? 10);
    }
  };
  try {
    await reads([], []);
    for (let round = 0; round < ROUNDS; round++) {
      flood.pause();
      // What the flood had in flight is answered before the quiet window.
      await sleep(300);
      await reads(result.quiet, result.probeQuiet);
      flood.resume();
      await sleep(300);
      await flood.ready?.();
      await reads(result.loud, result.probeLoud);
    }
  } finally {
    await kept?.close();
    probe.stop();
  }
  return result;
}

/**
 * Runs the victim beside `flood` (then stops it) and expects it served: no failure, p95 under the flood
 * within 3× the quiet one, plus {@link VictimOptions.sharedCoresMillis} and what the machine added
 * ({@link machineAddedMillis}). Answers the flood's answers by status. `options`: a number is
 * `sharedCoresMillis`.
 */
export async function expectVictimServed(
  flood: VictimFlood,
  graphqlUrls: readonly string[],
  victim: Record<string, string>,
  name: string,
  options: number | VictimOptions = 0,
): Promise<Map<number, number>> {
  const { sharedCoresMillis = 0, ...reading } =
    typeof options === 'number' ? { sharedCoresMillis: options } : options;
  let latencies: VictimLatencies;
  let statuses: Map<number, number>;
  try {
    latencies = await victimBeside(flood, graphqlUrls, victim, reading);
  } finally {
    statuses = await flood.stop();
  }
  const machine = machineAddedMillis(latencies);
  const report =
    `${name}: victim p95 quiet ${p95(latencies.quiet).toFixed(1)} ms, under flood ${p95(latencies.loud).toFixed(1)} ms; ` +
    `the machine's probe ${p95(latencies.probeQuiet).toFixed(1)} → ${p95(latencies.probeLoud).toFixed(1)} ms; ` +
    `flood answers by status ${JSON.stringify([...statuses])}`;
  console.info(report);
  expect(latencies.failures).toEqual([]);
  expect(p95(latencies.loud), report).toBeLessThanOrEqual(
    3 * p95(latencies.quiet) + sharedCoresMillis + machine,
  );
  return statuses;
}

/**
 * One address's flood of `requests` (from 127.0.0.2, eight keep-alive connections at `port`, nine requests
 * pipelined on each), with the victim beside it: expects the victim served, and the flood answered at
 * least once (it did run). The one-address floods of `cpu-share-floods` and `two-replica-floods`.
 */
export async function expectVictimServedBesideOneAddress(
  port: KeepAliveFloodOptions['port'],
  requests: string[],
  graphqlUrls: readonly string[],
  victim: Record<string, string>,
  name: string,
  sharedCoresMillis = 0,
): Promise<void> {
  const flood = startKeepAliveFlood({ port, requests, connections: 8, batch: 9, localAddress: '127.0.0.2' });
  const statuses = await expectVictimServed(flood, graphqlUrls, victim, name, sharedCoresMillis);
  expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
}

/** Several floods as one: paused, resumed and stopped together, their statuses summed. */
export function floodsTogether(floods: readonly KeepAliveFlood[]): KeepAliveFlood {
  return {
    pause: () => {
      for (const flood of floods) flood.pause();
    },
    resume: () => {
      for (const flood of floods) flood.resume();
    },
    stop: async () => {
      const statuses = new Map<number, number>();
      for (const each of await Promise.all(floods.map((flood) => flood.stop()))) {
        for (const [status, count] of each) statuses.set(status, (statuses.get(status) ?? 0) + count);
      }
      return statuses;
    },
  };
}
