/**
 * The fault suite: the gateway in front of a misbehaving loopback upstream. Every GraphQL request must get a
 * coded error within its deadline, the gateway must stay up, and the circuit breaker must open and recover.
 * Deadlines are shortened so that the suite runs in seconds (the defaults are 2/5/5/10/15 s).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { FaultMode } from '../../emulator/index.ts';
import { startFaultProxy, type FaultProxy, type ProxyFault } from '../support/servers/fault-proxy.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { LOAN_TYPES, LOGIN, codesOf, loginDemo, postGraphql } from '../support/post-graphql.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const REQUEST_TIMEOUT_MS = 1_500;
const HALF_OPEN_MS = 400;
const { emulator } = useEmulator();
let proxy: FaultProxy;
let gw: TestGateway;
let token: string;

beforeAll(async () => {
  proxy = await startFaultProxy(emulator.url);
  gw = await startGateway({
    upstreamUrl: proxy.url,
    env: {
      UPSTREAM_CONNECT_TIMEOUT_MS: '200',
      UPSTREAM_HEADERS_TIMEOUT_MS: '300',
      UPSTREAM_BODY_TIMEOUT_MS: '300',
      UPSTREAM_CALL_TIMEOUT_MS: '600',
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      // The breaker has its own gateway below; here every fault must reach the upstream.
      UPSTREAM_BREAKER_MIN_CALLS: '100000',
    },
  });
  token = await loginDemo(gw.graphqlUrl);
});
afterAll(async () => {
  await gw.close();
  await proxy.close();
});
beforeEach(() => {
  proxy.setFault(undefined);
  emulator.setFaults(undefined);
});

const read = () => postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, { authorization: `Bearer ${token}` });

type Fault = { proxy: ProxyFault } | { emulator: FaultMode };
const FAULTS: [string, Fault][] = [
  ['hang (no answer)', { proxy: 'hang' }],
  ['stall (half a body, then silence)', { proxy: 'stall' }],
  ['drip (a byte at a time, forever)', { proxy: 'drip' }],
  ['reset mid-body', { emulator: 'reset' }],
  ['HTTP 500', { emulator: 'error500' }],
  ['garbage body', { emulator: 'garbage' }],
  ['wrong JSONP callback', { emulator: 'wrongCallback' }],
  ['truncated body', { emulator: 'truncated' }],
  ['HTML maintenance page', { emulator: 'html' }],
  ['oversized body (20 MB)', { emulator: 'oversized' }],
];

function inject(fault: Fault): void {
  if ('proxy' in fault) proxy.setFault(fault.proxy);
  else emulator.setFaults({ every: 1, mode: fault.emulator });
}

it.each(FAULTS)(
  'should answer UPSTREAM_UNAVAILABLE within the request deadline, then recover: %s',
  async (_name, fault) => {
    inject(fault);
    const failed = await read();
    expect(failed.status).toBe(200);
    expect(codesOf(failed)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(failed.data).toBeNull();
    // An answer at all is the deadline at work: a hanging or dripping upstream never ends on its own.

    proxy.setFault(undefined);
    emulator.setFaults(undefined);
    const healthy = await fetch(`${gw.baseUrl}/healthz`);
    expect(healthy.status).toBe(200);
    const ok = await read();
    expect(ok.errors).toBeUndefined();
  },
);

it('should answer every request of a 5xx burst with a coded error and keep serving the others', async () => {
  emulator.setFaults({ every: 2, mode: 'error500', operations: ['getAll'] });
  const answers = await Promise.all(Array.from({ length: 12 }, () => read()));
  for (const answer of answers) {
    // Retries absorb part of the burst; what they cannot absorb is coded.
    if (answer.errors !== undefined) expect(codesOf(answer)).toEqual(['UPSTREAM_UNAVAILABLE']);
  }
  expect(answers.some((a) => a.errors === undefined)).toBe(true);
  expect((await fetch(`${gw.baseUrl}/healthz`)).status).toBe(200);
});

it('should open the breaker when most calls of the window fail, fail fast while open, and close after a good probe', async () => {
  const guarded = await startGateway({
    upstreamUrl: proxy.url,
    env: { UPSTREAM_BREAKER_MIN_CALLS: '5', UPSTREAM_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS) },
  });
  const auth = { authorization: `Bearer ${await loginDemo(guarded.graphqlUrl)}` };
  // A second user: the breaker opens only when the calls of more than one user fail.
  const admin = await postGraphql(guarded.graphqlUrl, LOGIN, {
    username: 'admin',
    password: 'admin-password',
  });
  const adminAuth = { authorization: `Bearer ${(admin.data?.login as { token: string }).token}` };
  let turn = 0;
  const readThere = () =>
    postGraphql(guarded.graphqlUrl, LOAN_TYPES, {}, (turn += 1) % 2 === 0 ? auth : adminAuth);
  try {
    emulator.setFaults({ every: 1, mode: 'garbage' });
    // Garbage is not retried: each read is one sick answer; five reads of the two users fill the window
    // (logins are not in it where they have no vote).
    for (let i = 0; i < 5; i++) expect(codesOf(await readThere())).toEqual(['UPSTREAM_UNAVAILABLE']);
    emulator.resetStats();

    const fast = await readThere();
    expect(fast.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      blame: 'upstream_health',
      reason: 'circuit_open',
    });
    expect(Object.values(emulator.stats()).reduce((a, b) => a + b, 0)).toBe(0);
    // A sidecar stays ready through an upstream outage (the front-end beside it keeps its Service), and
    // says why its answers fail.
    const ready = await fetch(`${guarded.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      upstream: { status: 'circuit open', breakers: { 'api+base+server+studio': 'open' } },
    });
    expect(guarded.gateway.upstream.breakerStates()).toEqual({ 'api+base+server+studio': 'open' });

    // A failing probe reopens it...
    await new Promise((resolve) => setTimeout(resolve, HALF_OPEN_MS + 50));
    expect(codesOf(await readThere())).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect((await readThere()).errors?.[0]?.extensions?.reason).toBe('circuit_open');

    // ...and a good one closes it.
    emulator.setFaults(undefined);
    await new Promise((resolve) => setTimeout(resolve, HALF_OPEN_MS + 50));
    const probe = await readThere();
    expect(probe.errors).toBeUndefined();
    expect(guarded.gateway.upstream.breakerStates()).toEqual({ 'api+base+server+studio': 'closed' });
    expect((await readThere()).errors).toBeUndefined();
    expect((await fetch(`${guarded.baseUrl}/readyz`)).status).toBe(200);

    const metrics = await (await fetch(`${guarded.baseUrl}/metrics`)).text();
    expect(metrics).toContain(`gateway_upstream_breaker_state{origin="api+base+server+studio"} 0`);
    expect(metrics).toMatch(
      /gateway_upstream_rejections_total\{operation="getAll",reason="circuit_open"\} [1-9]/,
    );
  } finally {
    emulator.setFaults(undefined);
    await guarded.close();
  }
});

it('should stay ready while the upstream is unreachable, unless READINESS_REQUIRES_UPSTREAM is set', async () => {
  const sidecar = await startGateway({ upstreamUrl: 'http://127.0.0.1:1' });
  const gated = await startGateway({
    upstreamUrl: 'http://127.0.0.1:1',
    env: { READINESS_REQUIRES_UPSTREAM: 'true' },
  });
  try {
    const ready = await fetch(`${sidecar.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    await expect
      .poll(async () => (await fetch(`${sidecar.baseUrl}/readyz`)).json())
      .toEqual({
        status: 'ready',
        upstream: { status: 'unreachable', breakers: {} },
      });
    await expect
      .poll(async () => {
        const answer = await fetch(`${gated.baseUrl}/readyz`);
        return { code: answer.status, body: await answer.json() };
      })
      .toMatchObject({ code: 503, body: { status: 'upstream unreachable' } });
    expect((await fetch(`${gated.baseUrl}/healthz`)).status).toBe(200);
  } finally {
    await sidecar.close();
    await gated.close();
  }
});

/**
 * Runs `test` against a gateway of its own over the fault proxy, with `env`, logged in as the demo user;
 * then clears the proxy's fault and closes that gateway.
 */
async function withGatewayOverProxy(
  env: Record<string, string>,
  test: (gateway: TestGateway, auth: Record<string, string>) => Promise<void>,
): Promise<void> {
  const own = await startGateway({ upstreamUrl: proxy.url, env });
  try {
    await test(own, { authorization: `Bearer ${await loginDemo(own.graphqlUrl)}` });
  } finally {
    proxy.setFault(undefined);
    await own.close();
  }
}

it('should cut a read at the GraphQL request deadline even when retries are left', async () => {
  // Seconds, not milliseconds, so that a loaded machine's late timers cannot blur attempt and retry.
  const env = {
    UPSTREAM_BODY_TIMEOUT_MS: '2000',
    UPSTREAM_CALL_TIMEOUT_MS: '4000',
    REQUEST_TIMEOUT_MS: '4500',
  };
  await withGatewayOverProxy(env, async (tight, auth) => {
    // Enough successes that the retry budget would allow both retries (20 % of 20).
    for (let i = 0; i < 20; i++) await postGraphql(tight.graphqlUrl, LOAN_TYPES, {}, auth);
    proxy.setFault('drip');
    const answer = await postGraphql(tight.graphqlUrl, LOAN_TYPES, {}, auth);
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'timeout' });
    // One 4 s attempt plus a retry would take over 8 s; the 4.5 s deadline answers first.
    expect(answer.elapsedMillis).toBeLessThan(7_500);
  });
});

it('should refuse at once, coded, a call beyond the bulkhead while the upstream is slow', async () => {
  // The slow call holds the slot for 5 s: ample for the refusal to come first on a loaded machine.
  const env = { UPSTREAM_MAX_CONCURRENT: '1', UPSTREAM_MAX_QUEUED: '0', UPSTREAM_HEADERS_TIMEOUT_MS: '5000' };
  await withGatewayOverProxy(env, async (narrow, auth) => {
    // Another user: the first one's own share would make its second call wait, not be refused.
    const admin = await postGraphql(narrow.graphqlUrl, LOGIN, {
      username: 'admin',
      password: 'admin-password',
    });
    const otherAuth = { authorization: `Bearer ${(admin.data?.login as { token: string }).token}` };
    proxy.setFault('hang');
    const order: string[] = [];
    const arrived = proxy.received();
    const slow = postGraphql(narrow.graphqlUrl, LOAN_TYPES, {}, auth).then((answer) => {
      order.push('slow');
      return answer;
    });
    // The slow call holds the only slot once it reached the upstream.
    await expect.poll(() => proxy.received()).toBe(arrived + 1);
    // A different read (identical ones would share the call in flight).
    const other = `{ objects(objectName: "com.example.Order", first: 1) { totalCount } }`;
    const refused = await postGraphql(narrow.graphqlUrl, other, {}, otherAuth);
    order.push('refused');
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      reason: 'overloaded',
    });
    // Answered while the slow call still held the only slot.
    expect(order).toEqual(['refused']);
    expect(codesOf(await slow)).toEqual(['UPSTREAM_UNAVAILABLE']);
  });
});
