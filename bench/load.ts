/**
 * The load process: reads one `LoadJob` per line of stdin, runs it with autocannon (pipelining 1, every
 * body checked; the fixed-rate run with `paced-load.ts`), and writes one `LoadResult` per line of stdout.
 * It lives for the whole bench run, so its own start-up and JIT warm-up never land inside a measured round.
 */
import type { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { createBodyCheck, latencyPercentiles } from './load-job.ts';
import { runPaced } from './paced-load.ts';
import type { LoadJob, LoadResult } from './load-job.ts';

/** Runs one job with autocannon. Latencies are kept at full precision, not autocannon's whole ms. */
async function runLoad(job: LoadJob, verify: (body: string) => boolean): Promise<LoadResult> {
  const latencies: number[] = [];
  const mismatchSamples: string[] = [];
  const first = job.variants[0];
  if (first === undefined) throw new Error('a load job needs at least one request variant');
  const paths = job.variants.map((variant) => {
    const url = new URL(variant.url);
    return { path: url.pathname + url.search, headers: variant.headers, body: variant.body };
  });
  let clients = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: first.url,
        method: job.method,
        headers: first.headers,
        body: first.body,
        connections: job.connections,
        duration: job.durationSeconds,
        pipelining: 1,
        // The round ends at the first sample tick after `duration`: a short tick keeps rounds on time.
        sampleInt: 250,
        // Connection i sends variant i % n: its own session (W1–W4) and, for W1, its own object.
        setupClient: (client) => {
          const variant = paths[clients++ % paths.length] ?? paths[0];
          client.setRequests([{ method: job.method, ...variant }]);
        },
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
  const requests = result.requests.total;
  return {
    requests,
    durationSeconds: result.duration,
    requestsPerSecond: result.duration > 0 ? requests / result.duration : 0,
    ...latencyPercentiles(latencies),
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
      const job = JSON.parse(line) as LoadJob;
      const verify = createBodyCheck(job.check);
      const result =
        job.pacedRate === undefined ? await runLoad(job, verify) : await runPaced(job, job.pacedRate, verify);
      process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
    } catch (error) {
      process.stdout.write(
        `${JSON.stringify({ ok: false, message: error instanceof Error ? error.message : 'failed' })}\n`,
      );
    }
  }
}

await main();
