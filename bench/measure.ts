/**
 * One measured round (load from the load process, the peer's CPU and RSS from /proc, upstream calls from
 * the emulator's counters), and the pre-flight that fixes what every response of a cell must equal.
 */
import { isDeepStrictEqual } from 'node:util';
import { upstreamCallCount, waitForQuiet } from './emulator-client.ts';
import type { PlainRequest } from './emulator-client.ts';
import { gcPerRequest } from './gc/gc-totals.ts';
import type { LoadClient } from './load-client.ts';
import { createBodyCheck, decodeJsonp } from './load-job.ts';
import type { BodyCheck, LoadJob } from './load-job.ts';
import type { RunningPeer } from './peer-registry.ts';
import { cpuSeconds, samplePeakRss } from '../support/proc-stats.ts';
import type { RoundMeasure } from './summary.ts';
import { expectedGraphqlData, workloadVariants } from './workloads.ts';
import type { Fixture, UpstreamRecord, WorkloadId } from './workloads.ts';

/** The check of a cell, what was wrong with the pre-flight answers, and upstream calls with one client. */
export interface Preflight {
  check: BodyCheck;
  problems: string[];
  /** Upstream calls per request over a few sequential requests: batching without coalescing. */
  sequentialCallsPerRequest: number;
}

const SEQUENTIAL_REQUESTS = 5;

async function send(request: PlainRequest): Promise<{ ok: boolean; body: string; shown: string }> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const body = await response.text();
  return { ok: response.ok, body, shown: `HTTP ${response.status}: ${body.slice(0, 300)}` };
}

/** What P0's answer must hold: the records of the upstream's read envelope. */
function expectedDirect(
  workload: Exclude<WorkloadId, 'W4'>,
  fixture: Fixture,
  object: UpstreamRecord | undefined,
) {
  if (workload === 'W2' || workload === 'W2H')
    return { data: fixture.orders.page as unknown[], totalCount: fixture.orders.totalCount };
  return { data: object === undefined ? [] : [object], totalCount: undefined };
}

/** The answer a variant must equal (for P0: the emulator's own envelope, once its records are right). */
function expectedJson(
  peer: RunningPeer,
  workload: Exclude<WorkloadId, 'W4'>,
  fixture: Fixture,
  object: UpstreamRecord | undefined,
  body: string,
): unknown {
  if (peer.id !== 'P0') return { data: expectedGraphqlData(workload, fixture, object) };
  const expected = expectedDirect(workload, fixture, object);
  let answer: { data?: unknown; totalCount?: unknown } | undefined;
  try {
    answer = decodeJsonp(body) as typeof answer;
  } catch {
    answer = undefined;
  }
  const right =
    isDeepStrictEqual(answer?.data, expected.data) &&
    (expected.totalCount === undefined || answer?.totalCount === expected.totalCount);
  return right ? answer : { status: 'success', data: expected.data };
}

/**
 * Sends each variant once and derives the check every response of the cell must pass, then a few
 * sequential requests to count upstream calls with no concurrency.
 */
export async function preflight(
  peer: RunningPeer,
  workload: WorkloadId,
  requests: PlainRequest[],
  fixture: Fixture,
  emulatorUrl: string,
): Promise<Preflight> {
  const jsonp = peer.id === 'P0';
  const objects = workloadVariants(workload, fixture).map((variant) => variant.object);
  const problems: string[] = [];
  const json: unknown[] = [];
  const exact: string[] = [];
  for (const [index, request] of requests.entries()) {
    const answer = await send(request);
    let passes: boolean;
    if (workload === 'W4') {
      passes = answer.ok && createBodyCheck({ kind: 'saved', jsonp })(answer.body);
    } else {
      const expected = expectedJson(peer, workload, fixture, objects[index], answer.body);
      json.push(expected);
      passes =
        answer.ok && createBodyCheck({ kind: 'equals', json: [expected], exact: [], jsonp })(answer.body);
      if (passes) exact.push(answer.body);
    }
    if (!passes) problems.push(`${peer.id} ${workload} answered something else: ${answer.shown}`);
  }
  await waitForQuiet(emulatorUrl);
  const before = await upstreamCallCount(emulatorUrl);
  for (let index = 0; index < SEQUENTIAL_REQUESTS; index++) {
    const request = requests[index % requests.length];
    if (request !== undefined) await send(request);
  }
  const sequentialCallsPerRequest = ((await upstreamCallCount(emulatorUrl)) - before) / SEQUENTIAL_REQUESTS;
  // Per-connection variants repeat the same answer (W2's page for every session): each is checked once.
  const distinct = [...new Map(json.map((value) => [JSON.stringify(value), value])).values()];
  const check: BodyCheck =
    workload === 'W4'
      ? { kind: 'saved', jsonp }
      : { kind: 'equals', json: distinct, exact: [...new Set(exact)], jsonp };
  return { check, problems, sequentialCallsPerRequest };
}

/** Everything measuring a round needs. */
export interface RoundContext {
  load: LoadClient;
  emulatorUrl: string;
  ticksPerSecond: number;
}

/** Runs one round of `job` against `peer` and measures it. */
export async function measureRound(
  context: RoundContext,
  peer: RunningPeer,
  job: LoadJob,
): Promise<{ measure: RoundMeasure; mismatchSamples: string[] }> {
  const { pid } = peer.process;
  const callsBefore = await upstreamCallCount(context.emulatorUrl);
  // Read before the CPU starts counting and after it stops, so the reading costs the round nothing.
  const gcBefore = await peer.gc?.snapshot();
  const cpuBefore = cpuSeconds(pid, context.ticksPerSecond);
  const rss = samplePeakRss(pid);
  const result = await context.load.run(job);
  const peakRssBytes = rss.stop();
  const cpu = cpuSeconds(pid, context.ticksPerSecond) - cpuBefore;
  const gcAfter = gcBefore === undefined ? undefined : await peer.gc?.snapshot();
  // The stats request itself is not an upstream operation, so it does not count.
  const calls = (await upstreamCallCount(context.emulatorUrl)) - callsBefore;
  // Requests the load generator abandoned at the end still run in the peer: let them finish before the
  // next round starts, so their calls and CPU land in no one's numbers.
  await waitForQuiet(context.emulatorUrl);
  const perRequest = (value: number): number => (result.requests > 0 ? value / result.requests : 0);
  return {
    measure: {
      requests: result.requests,
      requestsPerSecond: result.requestsPerSecond,
      p50Millis: result.p50Millis,
      p99Millis: result.p99Millis,
      upstreamCallsPerRequest: perRequest(calls),
      cpuSecondsPer1000: perRequest(cpu) * 1000,
      peakRssBytes,
      non2xx: result.non2xx,
      socketErrors: result.errors,
      mismatches: result.mismatches,
      ...(gcBefore === undefined || gcAfter === undefined
        ? {}
        : gcPerRequest(gcBefore, gcAfter, result.requests)),
    },
    mismatchSamples: result.mismatchSamples,
  };
}

/** A load job sending `requests` (one variant per connection) with the given check and shape. */
export function loadJob(
  requests: PlainRequest[],
  check: BodyCheck,
  connections: number,
  durationSeconds: number,
  pacedRate?: number,
): LoadJob {
  const first = requests[0];
  if (first === undefined) throw new Error('a load job needs at least one request');
  const variants = requests.map((request) => ({
    url: request.url,
    headers: request.headers,
    body: request.body,
  }));
  return {
    method: first.method,
    variants,
    check,
    connections,
    durationSeconds,
    pacedRate,
  };
}
