/**
 * The fixed-rate run: requests evenly spaced in time (open loop), over `job.connections` keep-alive undici
 * clients, one connection each. Connection `i` always sends variant `i % variants.length` (its own user's
 * session, as autocannon's connections do), and request `n` goes to connection `n % connections`: one
 * session per connection, as the workloads have it. Not autocannon: its `overallRate` sends each
 * connection's share of a second back to back at the start of every second, which measures bursts, not a
 * steady rate. Latency runs from handing a request to its connection (waiting behind that connection's
 * previous request included) to the last byte of its answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'undici';
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
  const origin = new URL(first.url).origin;
  const connections = Array.from({ length: Math.max(1, job.connections) }, (_, index) => {
    const variant = job.variants[index % job.variants.length] ?? first;
    const url = new URL(variant.url);
    return {
      client: new Client(origin, { pipelining: 1 }),
      request: {
        path: url.pathname + url.search,
        method: job.method,
        headers: variant.headers,
        body: variant.body,
      },
    };
  });
  const latencies: number[] = [];
  const result = { non2xx: 0, errors: 0, mismatches: 0, mismatchSamples: [] as string[] };
  const send = async (index: number): Promise<void> => {
    const connection = connections[index % connections.length];
    if (connection === undefined) return;
    const started = performance.now();
    try {
      const response = await connection.client.request(connection.request);
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
  await Promise.all(connections.map(({ client }) => client.close()));
  return {
    requests: latencies.length,
    durationSeconds,
    requestsPerSecond: latencies.length / durationSeconds,
    ...latencyPercentiles(latencies),
    ...result,
  };
}
