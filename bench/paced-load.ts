/**
 * The fixed-rate run: requests evenly spaced in time (open loop), over a keep-alive undici pool. Not
 * autocannon: its `overallRate` sends each connection's share of a second back to back at the start of
 * every second, which measures bursts, not a steady rate. Latency runs from handing a request to the pool
 * (queueing included) to the last byte of its answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { latencyPercentiles } from './load-job.ts';
import type { LoadJob, LoadResult } from './load-job.ts';

/** Runs `job` at `job.pacedRate` requests per second, checking every body with `verify`. */
export async function runPaced(
  job: LoadJob,
  rate: number,
  verify: (body: string) => boolean,
): Promise<LoadResult> {
  const first = job.variants[0];
  if (first === undefined) throw new Error('a load job needs at least one request variant');
  const pool = new Pool(new URL(first.url).origin, { connections: job.connections, pipelining: 1 });
  const requests = job.variants.map((variant) => {
    const url = new URL(variant.url);
    return {
      path: url.pathname + url.search,
      method: job.method,
      headers: variant.headers,
      body: variant.body,
    };
  });
  const latencies: number[] = [];
  const result = { non2xx: 0, errors: 0, mismatches: 0, mismatchSamples: [] as string[] };
  const send = async (index: number): Promise<void> => {
    const request = requests[index % requests.length];
    if (request === undefined) return;
    const started = performance.now();
    try {
      const response = await pool.request(request);
      const body = await response.body.text();
      latencies.push(performance.now() - started);
      if (response.statusCode < 200 || response.statusCode >= 300) result.non2xx++;
      if (!verify(body)) {
        result.mismatches++;
        if (result.mismatchSamples.length < 3) result.mismatchSamples.push(body.slice(0, 300));
      }
    } catch {
      result.errors++;
    }
  };
  const total = Math.max(1, Math.round(rate * job.durationSeconds));
  const intervalMillis = 1000 / rate;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let issued = 0;
  while (issued < total) {
    const due = Math.min(total, Math.floor((performance.now() - start) / intervalMillis) + 1);
    for (; issued < due; issued++) pending.push(send(issued));
    const next = start + issued * intervalMillis - performance.now();
    if (next > 0) await sleep(next);
  }
  await Promise.all(pending);
  const durationSeconds = (performance.now() - start) / 1000;
  await pool.close();
  return {
    requests: latencies.length,
    durationSeconds,
    requestsPerSecond: latencies.length / durationSeconds,
    ...latencyPercentiles(latencies),
    ...result,
  };
}
