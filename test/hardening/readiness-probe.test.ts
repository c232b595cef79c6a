/**
 * `/readyz` against a hung upstream: however many probes arrive together, the gateway sends the upstream
 * at most one request at a time and reuses its answer; it answers without waiting for that request (a
 * kubelet gives it 2 s); it tells a slow upstream from an unreachable one; and no answer anyone can read
 * names the upstream's address.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createReadinessProbe } from '../../src/app/readiness-probe.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { LOGIN } from '../support/post-graphql.ts';
import { listenOnLoopback, type Listening } from '../support/servers/listen-on-loopback.ts';

/** A hung upstream: it reads every request and never answers, counting them and the most at once. */
let hung: Listening;
let received = 0;
let open = 0;
let mostAtOnce = 0;
const pending: IncomingMessage[] = [];
let gw: TestGateway;

beforeAll(async () => {
  hung = await listenOnLoopback(
    createServer((request) => {
      received++;
      open++;
      mostAtOnce = Math.max(mostAtOnce, open);
      pending.push(request);
      request.socket.once('close', () => open--);
    }),
  );
  // Room for 64 probes on their own connections from this one address, and the next ones beside them.
  gw = await startGateway({
    upstreamUrl: hung.url,
    env: {
      MAX_CONNECTIONS_PER_ADDRESS: '256',
      // A GraphQL call against the hung upstream gives up soon.
      UPSTREAM_HEADERS_TIMEOUT_MS: '300',
      UPSTREAM_CALL_TIMEOUT_MS: '600',
    },
  });
});
afterAll(async () => {
  await gw.close();
  await hung.close();
});

it('should send a hung upstream one readiness probe at a time, and answer /readyz without waiting for it', async () => {
  const answers = await Promise.all(Array.from({ length: 64 }, () => fetch(`${gw.baseUrl}/readyz`)));
  // Answered while the one probe still waits on the upstream: nothing is known of it yet.
  expect(pending.length).toBe(1);
  expect(pending[0]?.socket.destroyed).toBe(false);
  // A sidecar stays ready through an upstream outage.
  expect(answers.map((answer) => answer.status)).toEqual(Array<number>(64).fill(200));
  const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as {
    upstream: { status: string };
  }[];
  for (const body of bodies) expect(['unknown', 'slow']).toContain(body.upstream.status);
  expect(mostAtOnce).toBe(1);
  expect(received).toBe(1);

  // Past the probe's deadline (5 s), the upstream that never answered is unreachable.
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${gw.baseUrl}/readyz`)).json()) as { upstream: { status: string } }).upstream
          .status,
    )
    .toBe('unreachable');
  // However often it was asked meanwhile, never more than one request at a time, and few in all.
  expect(mostAtOnce).toBe(1);
  expect(received).toBeLessThanOrEqual(3);
});

it('should name the upstream nowhere in /readyz, /metrics or a GraphQL error', async () => {
  const { host, port } = new URL(hung.url);
  const login = await fetch(gw.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: LOGIN, variables: { username: 'demo', password: 'demo-password' } }),
  });
  const texts = [await login.text()];
  expect(texts[0]).toContain('UPSTREAM_');
  for (const path of ['/readyz', '/metrics', '/healthz']) {
    texts.push(await (await fetch(`${gw.baseUrl}${path}`)).text());
  }
  for (const text of texts) {
    expect(text).not.toContain(host);
    expect(text).not.toContain(`:${port}`);
  }
});

it('should send nothing while the breaker fails fast, and probe again once it no longer does', async () => {
  let failingFast = true;
  const probe = createReadinessProbe({
    url: hung.url,
    isFailingFast: () => failingFast,
    timeoutMillis: 200,
    // Waits for the probe to settle: this test is about what is sent, not how soon /readyz answers.
    answerWithinMillis: 60_000,
  });
  const before = received;
  expect(await Promise.all(Array.from({ length: 8 }, () => probe()))).toEqual(
    Array<string>(8).fill('unreachable'),
  );
  expect(received).toBe(before);
  failingFast = false;
  expect(await Promise.all(Array.from({ length: 8 }, () => probe()))).toEqual(
    Array<string>(8).fill('unreachable'),
  );
  expect(received).toBe(before + 1);
});

it('should call an upstream that answers late slow, not unreachable', async () => {
  const late = await listenOnLoopback(
    createServer((_request, response) => {
      setTimeout(() => response.end('late'), 300);
    }),
  );
  try {
    const probe = createReadinessProbe({
      url: late.url,
      isFailingFast: () => false,
      slowMillis: 100,
      answerWithinMillis: 60_000,
    });
    expect(await probe()).toBe('slow');
  } finally {
    await late.close();
  }
});

it('should answer before the probe under way settles, with what is known', async () => {
  const before = pending.length;
  const probe = createReadinessProbe({
    url: hung.url,
    isFailingFast: () => false,
    timeoutMillis: 600_000,
    slowMillis: 600_000,
    answerWithinMillis: 50,
  });
  expect(await probe()).toBe('unknown');
  // The upstream request is still waiting: the answer did not wait for it.
  await expect.poll(() => pending.length).toBe(before + 1);
  expect(pending.at(-1)?.socket.destroyed).toBe(false);
});
