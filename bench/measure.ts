/**
 * One measured round (load from the load process, the peer's CPU and RSS from /proc, upstream calls from
 * the emulator's counters), and the pre-flight that fixes what every response of a cell must equal.
 */
import { isDeepStrictEqual } from 'node:util';
import { upstreamCallCount } from './emulator-client.ts';
import type { PlainRequest } from './emulator-client.ts';
import type { LoadClient } from './load-client.ts';
import { createBodyCheck, decodeJsonp } from './load-job.ts';
import type { BodyCheck, LoadJob } from './load-job.ts';
import type { RunningPeer } from './peer-registry.ts';
import { cpuSeconds, samplePeakRss } from './proc-stats.ts';
import type { RoundMeasure } from './summary.ts';
import { expectedGraphqlData } from './workloads.ts';
import type { Fixture, WorkloadId } from './workloads.ts';

/** The check of a cell, and what was wrong with the pre-flight answer, if anything. */
export interface Preflight {
  check: BodyCheck;
  problem: string | undefined;
}

function expectedDirect(
  workload: Exclude<WorkloadId, 'W4'>,
  fixture: Fixture,
): { data: unknown[]; totalCount?: number } {
  if (workload === 'W1') return { data: [fixture.object] };
  if (workload === 'W5') return { data: [fixture.hotObject] };
  return { data: fixture.orders.page, totalCount: fixture.orders.totalCount };
}

/** Sends one request and derives the check every response of the cell must pass. */
export async function preflight(
  peer: RunningPeer,
  workload: WorkloadId,
  request: PlainRequest,
  fixture: Fixture,
): Promise<Preflight> {
  const jsonp = peer.id === 'P0';
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const body = await response.text();
  const shown = `HTTP ${response.status}: ${body.slice(0, 300)}`;
  let check: BodyCheck;
  if (workload === 'W4') {
    check = { kind: 'saved', jsonp };
  } else if (jsonp) {
    // P0's answer carries the upstream's own envelope: check the records in it, then expect it whole.
    let answer: unknown;
    try {
      answer = decodeJsonp(body);
    } catch {
      answer = undefined;
    }
    const expected = expectedDirect(workload, fixture);
    const got = answer as { data?: unknown; totalCount?: unknown } | undefined;
    const matches =
      isDeepStrictEqual(got?.data, expected.data) &&
      (expected.totalCount === undefined || got?.totalCount === expected.totalCount);
    check = { kind: 'equals', json: matches ? answer : { data: expected.data }, jsonp };
  } else {
    check = { kind: 'equals', json: { data: expectedGraphqlData(workload, fixture) }, jsonp };
  }
  const passes = response.ok && createBodyCheck(check)(body);
  if (passes && check.kind === 'equals') check = { ...check, exact: body };
  return { check, problem: passes ? undefined : `${peer.id} ${workload} answered something else: ${shown}` };
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
  const cpuBefore = cpuSeconds(pid, context.ticksPerSecond);
  const rss = samplePeakRss(pid);
  const result = await context.load.run(job);
  const peakRssBytes = rss.stop();
  const cpu = cpuSeconds(pid, context.ticksPerSecond) - cpuBefore;
  // The stats request itself is not an upstream operation, so it does not count.
  const calls = (await upstreamCallCount(context.emulatorUrl)) - callsBefore;
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
    },
    mismatchSamples: result.mismatchSamples,
  };
}

/** A load job for `request` with the given check and shape. */
export function loadJob(
  request: PlainRequest,
  check: BodyCheck,
  connections: number,
  durationSeconds: number,
  overallRate?: number,
): LoadJob {
  return { ...request, check, connections, durationSeconds, overallRate };
}
