/**
 * `/readyz` against a hung upstream: however many probes arrive together, the gateway sends the upstream
 * at most one request at a time and reuses its answer, and no answer anyone can read names the upstream's
 * address.
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

it('should send a hung upstream one readiness probe at a time, however many /readyz arrive together', async () => {
  const answers = await Promise.all(Array.from({ length: 64 }, () => fetch(`${gw.baseUrl}/readyz`)));
  // A sidecar stays ready through an upstream outage; each probe says the upstream is unreachable.
  expect(answers.map((answer) => answer.status)).toEqual(Array<number>(64).fill(200));
  const bodies = await Promise.all(answers.map((answer) => answer.json()));
  for (const body of bodies) expect(body).toMatchObject({ upstream: { status: 'unreachable' } });
  expect(mostAtOnce).toBe(1);
  expect(received).toBe(1);

  // Asked again at once, the answer is reused: still one upstream request.
  expect((await fetch(`${gw.baseUrl}/readyz`)).status).toBe(200);
  expect(received).toBe(1);
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
  });
  const before = received;
  expect(await Promise.all(Array.from({ length: 8 }, () => probe()))).toEqual(Array<boolean>(8).fill(false));
  expect(received).toBe(before);
  failingFast = false;
  expect(await Promise.all(Array.from({ length: 8 }, () => probe()))).toEqual(Array<boolean>(8).fill(false));
  expect(received).toBe(before + 1);
});
