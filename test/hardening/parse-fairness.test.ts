/**
 * Shared resources: parse work. Decoding and `JSON.parse` are synchronous, so a multi-MiB upstream answer
 * of many small records blocks the event loop for tens of milliseconds. Here one user reads 4 MiB pages
 * (half a million objects each, within its byte share) in a loop from four connections while another user
 * reads small pages one after the other: every small read is served, and the large ones are served or cut
 * for the byte share, nothing else. The large answers are parsed one per user at a time, after a turn of
 * the event loop (`src/upstream/dialect/parse-slots.ts`, `test/upstream/parse-slots.test.ts`).
 *
 * Measured (this test, `REPORT_PARSE_FAIRNESS=1`, 2 busy cores): see docs/shared-resources.md, "Parse work".
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { FILTERED_LOAN_PAGE } from '../support/filtered-loan-page.ts';
import { answerSummary } from '../support/answer-summary.ts';
import { bearerLogin } from '../support/bearer-login.ts';
import { LOAN_TYPES, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';
import { startLargeAnswerProxy, type LargeAnswerProxy } from '../support/servers/large-answer-proxy.ts';
import { MiB } from '../support/mib.ts';

const CONNECTIONS = 4;
const SMALL_READS = 100;

let emulator: RunningEmulator;
let proxy: LargeAnswerProxy;
let gateway: TestGateway;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  proxy = await startLargeAnswerProxy(emulator.url, {
    usernames: ['admin'],
    bytes: 4 * MiB,
    everyMillis: 0,
    padWith: 'objects',
  });
  gateway = await startGateway({ upstreamUrl: proxy.url });
});
afterAll(async () => {
  await gateway.close();
  await proxy.close();
  await emulator.close();
});

async function login(username: string, password: string): Promise<Record<string, string>> {
  return bearerLogin(gateway.graphqlUrl, { username, password });
}

function summary(answer: GraphqlAnswer): string {
  return answerSummary(answer, ['reason']);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

it("should serve another user's small reads while one user reads large pages of many records in a loop", async () => {
  const reader = await login('admin', 'admin-password');
  const other = await login('demo', 'demo-password');
  expect(
    summary(await postGraphql(gateway.graphqlUrl, FILTERED_LOAN_PAGE, { name: 'warm-up' }, reader)),
  ).toBe('data');
  expect(summary(await postGraphql(gateway.graphqlUrl, LOAN_TYPES, {}, other))).toBe('data');

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let reading = true;
  const largeAnswers: string[] = [];
  const loops = Array.from({ length: CONNECTIONS }, async (_, connection) => {
    for (let read = 0; reading; read++) {
      const answer = await postGraphql(
        gateway.graphqlUrl,
        FILTERED_LOAN_PAGE,
        { name: `c${connection}-${read}` },
        reader,
      );
      largeAnswers.push(summary(answer));
    }
  });
  const smallAnswers: string[] = [];
  const latencies: number[] = [];
  try {
    for (let read = 0; read < SMALL_READS; read++) {
      const answer = await postGraphql(gateway.graphqlUrl, LOAN_TYPES, {}, other);
      smallAnswers.push(summary(answer));
      latencies.push(answer.elapsedMillis);
      // A person clicking, not a loop: the reads sample the whole time the large pages are read.
      await sleep(10);
    }
  } finally {
    reading = false;
    await Promise.all(loops);
    delay.disable();
  }

  expect(smallAnswers.filter((answer) => answer === 'data')).toHaveLength(SMALL_READS);
  expect(largeAnswers.length).toBeGreaterThan(0);
  expect(
    largeAnswers.every((answer) => answer === 'data' || answer === 'TOO_MANY_REQUESTS/answer_share'),
    largeAnswers.join(', '),
  ).toBe(true);
  expect(largeAnswers).toContain('data');
  if (process.env.REPORT_PARSE_FAIRNESS) {
    process.stderr.write(
      `parse fairness: ${largeAnswers.length} large answers; small reads p50 ${percentile(latencies, 50).toFixed(0)} ms, ` +
        `p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms; event loop delay ` +
        `p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms\n`,
    );
  }
});
