/**
 * A victim's reads beside a flood, for the fair-share tests: the reads, one after the other from another
 * address, in alternating windows without and with the flood (paused, then resumed), so that whatever else
 * loads the machine loads both alike; each p95 is taken over all windows of its kind. The promise the
 * product makes: under the flood the victim's p95 stays within three times its quiet p95, and no read fails.
 * What the machine's scheduler takes from each read under the flood (`machine-wait.ts`: the time the victim,
 * the gateway and its upstream waited for a CPU meanwhile) is not the gateway's, and is allowed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { fetchFrom } from './fetch-from.ts';
import { startKeepAliveFlood, type KeepAliveFlood, type KeepAliveFloodOptions } from './keep-alive-flood.ts';
import {
  describeWindow,
  p95LessMachine,
  record,
  timedWithMachineWait,
  type MachineTimings,
} from './machine-wait.ts';
import { p95 } from './p95.ts';
import { LOAN_TYPES, postGraphql } from './post-graphql.ts';

/** Windows of each kind, and the victim's reads in each. */
const ROUNDS = 5;
const READS_PER_WINDOW = 25;

/** What the victim saw. */
export interface VictimLatencies {
  quiet: MachineTimings;
  loud: MachineTimings;
  /** Every answer that was not data. */
  failures: string[];
}

/**
 * A gateway the victim reads at: its GraphQL address, its process and its upstream's (where the test has
 * it), whose waits for a CPU are the machine's.
 */
export interface VictimGateway {
  graphqlUrl: string;
  process: { pid: number };
  upstream?: { pid: number };
}

/** How the victim reads, beside which flood. */
export interface VictimOptions {
  /** Each read on a connection of its own, opened for it and closed after it (a client without keep-alive). */
  connectionPerRead?: boolean;
  /** The pause between reads. Default 10 ms. */
  everyMillis?: number;
}

/** A flood the victim reads beside; `ready`, if given, settles once a resumed flood is at full strength. */
export type VictimFlood = KeepAliveFlood & { ready?: () => Promise<void> };

/**
 * The victim's reads, each at the next of `gateways` in turn (replicas behind a balancer), on keep-alive
 * connections or one connection per read. A read that throws (its connection closed unanswered) is a failure.
 */
async function victimBeside(
  flood: VictimFlood,
  gateways: readonly VictimGateway[],
  headers: Record<string, string>,
  options: VictimOptions,
): Promise<VictimLatencies> {
  const kept = options.connectionPerRead === true ? undefined : fetchFrom('127.0.0.3');
  const result: VictimLatencies = {
    quiet: { elapsed: [], machine: [] },
    loud: { elapsed: [], machine: [] },
    failures: [],
  };
  let turn = 0;
  const read = async (gateway: VictimGateway, into: MachineTimings) => {
    const victim = kept ?? fetchFrom('127.0.0.3');
    const pids = [gateway.process.pid, ...(gateway.upstream === undefined ? [] : [gateway.upstream.pid])];
    try {
      const answer = record(
        into,
        await timedWithMachineWait(pids, () =>
          postGraphql(gateway.graphqlUrl, LOAN_TYPES, {}, headers, victim.fetch),
        ),
      );
      if (answer.status !== 200 || answer.errors !== undefined) {
        result.failures.push(`${String(answer.status)} ${JSON.stringify(answer.errors)}`);
      }
    } catch (error) {
      result.failures.push(String(error));
    } finally {
      if (kept === undefined) await victim.close();
    }
  };
  const reads = async (into: MachineTimings) => {
    for (let count = 0; count < READS_PER_WINDOW; count++) {
      const gateway = gateways[turn++ % gateways.length];
      if (gateway === undefined) throw new Error('no gateway to read at');
      await read(gateway, into);
      await sleep(options.everyMillis ?? 10);
    }
  };
  try {
    await reads({ elapsed: [], machine: [] });
    for (let round = 0; round < ROUNDS; round++) {
      flood.pause();
      // What the flood had in flight is answered before the quiet window.
      await sleep(300);
      await reads(result.quiet);
      flood.resume();
      await sleep(300);
      await flood.ready?.();
      await reads(result.loud);
    }
  } finally {
    await kept?.close();
  }
  return result;
}

/**
 * Runs the victim beside `flood` (then stops it) and expects it served: no failure, p95 under the flood, less
 * what the machine took from each read ({@link p95LessMachine}), within 3× the quiet one. At two replicas
 * on this machine's two cores (deployed, each has its own), that includes what the other replica takes.
 * Answers the flood's answers by status.
 */
export async function expectVictimServed(
  flood: VictimFlood,
  gateways: readonly VictimGateway[],
  victim: Record<string, string>,
  name: string,
  options: VictimOptions = {},
): Promise<Map<number, number>> {
  let latencies: VictimLatencies;
  let statuses: Map<number, number>;
  try {
    latencies = await victimBeside(flood, gateways, victim, options);
  } finally {
    statuses = await flood.stop();
  }
  const report =
    `${name}: victim quiet ${describeWindow(latencies.quiet)}, under flood ${describeWindow(latencies.loud)}; ` +
    `flood answers by status ${JSON.stringify([...statuses])}`;
  console.info(report);
  expect(latencies.failures).toEqual([]);
  expect(p95LessMachine(latencies.loud), report).toBeLessThanOrEqual(3 * p95(latencies.quiet.elapsed));
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
  gateways: readonly VictimGateway[],
  victim: Record<string, string>,
  name: string,
): Promise<void> {
  const flood = startKeepAliveFlood({ port, requests, connections: 8, batch: 9, localAddress: '127.0.0.2' });
  const statuses = await expectVictimServed(flood, gateways, victim, name);
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
