/**
 * The load process: reads one `LoadJob` per line of stdin, runs it with autocannon (pipelining 1, every
 * body checked), and writes one `LoadResult` per line of stdout. It lives for the whole bench run, so its
 * own start-up and JIT warm-up never land inside a measured round.
 */
import type { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { createBodyCheck } from './load-job.ts';
import type { LoadJob, LoadResult } from './load-job.ts';

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

/** Runs one job. Latencies are kept at full (sub-millisecond) precision, not autocannon's whole ms. */
async function runLoad(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  const mismatchSamples: string[] = [];
  const verify = createBodyCheck(job.check);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        method: job.method,
        headers: job.headers,
        body: job.body,
        connections: job.connections,
        duration: job.durationSeconds,
        overallRate: job.overallRate,
        pipelining: 1,
        // The round ends at the first sample tick after `duration`: a short tick keeps rounds on time.
        sampleInt: 250,
        verifyBody: (body) => verify(String(body)),
      },
      (error: unknown, done) => {
        if (error !== null && error !== undefined)
          reject(error instanceof Error ? error : new Error('autocannon failed'));
        else resolve(done);
      },
    );
    // autocannon's tracker emits (client, status, bytes, milliseconds); its typings describe the client's.
    const events = instance as unknown as EventEmitter;
    events.on('response', (_client: unknown, _status: number, _bytes: number, millis: number) => {
      latencies.push(millis);
    });
    events.on('reqMismatch', (body: unknown) => {
      if (mismatchSamples.length < 3) mismatchSamples.push(String(body).slice(0, 300));
    });
  });
  const sorted = Float64Array.from(latencies).sort();
  const requests = result.requests.total;
  return {
    requests,
    durationSeconds: result.duration,
    requestsPerSecond: result.duration > 0 ? requests / result.duration : 0,
    p50Millis: percentile(sorted, 0.5),
    p99Millis: percentile(sorted, 0.99),
    non2xx: result.non2xx,
    errors: result.errors,
    mismatches: result.mismatches,
    mismatchSamples,
  };
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    try {
      const result = await runLoad(JSON.parse(line) as LoadJob);
      process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
    } catch (error) {
      process.stdout.write(
        `${JSON.stringify({ ok: false, message: error instanceof Error ? error.message : 'failed' })}\n`,
      );
    }
  }
}

await main();
