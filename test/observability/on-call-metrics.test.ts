/**
 * What on-call reads from `/metrics`: whose fault failures are (`blame`), which build runs, how
 * close a replica is to each of its caps, whether it drains, and counters that are there, at 0, before
 * their first event. Each against the real gateway: the emulator behind it, or an upstream that holds its
 * answer, or none at all.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingUrl } from '../support/refusing-url.ts';
import { startGateway, useHarness, type TestGateway } from '../support/gateway-harness.ts';
import { codesOf, postGraphql } from '../support/post-graphql.ts';
import { quietRedisReadings } from '../support/quiet-redis-readings.ts';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

/** One sample's value in `text`, or `undefined` when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The values of `series` in `text`, by name (`undefined` for one absent). */
function samples(text: string, series: readonly string[]): Record<string, number | undefined> {
  return Object.fromEntries(series.map((name) => [name, sample(text, name)]));
}

/** Scrapes `/metrics` over a real connection (so the scrape is itself a connection and a request). */
async function scrape(gateway: TestGateway): Promise<string> {
  return (await fetch(`${gateway.baseUrl}/metrics`)).text();
}

const LOGIN = 'mutation { login(username: "demo", password: "demo") { token } }';

describe('with the emulator behind it', () => {
  const h = useHarness({
    env: {
      GIT_COMMIT: '0a1b2c3d',
      MAX_CONNECTIONS: '300',
      MAX_CONNECTIONS_PER_ADDRESS: '300',
      MAX_INFLIGHT_BODY_BYTES: '16777216',
      UPSTREAM_MAX_CONCURRENT: '12',
      UPSTREAM_MAX_QUEUED: '34',
      UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES: '33554432',
      SESSION_REVOCATIONS_MAX: '5000',
      LOGIN_MAX_TRACKED_COUNTERS: '7000',
    },
  });

  it('should show every counter of a known label set at 0 before any traffic', async () => {
    const text = await scrape(h);
    for (const series of [
      'gateway_login_blocks_total{limit="user_ip"}',
      'gateway_login_blocks_total{limit="overflow"}',
      'gateway_upstream_rejections_total{operation="getAll",reason="circuit_open"}',
      'gateway_upstream_retries_total{operation="getObject",outcome="denied"}',
      'gateway_upstream_calls_total{operation="getAll",outcome="timeout",blame="upstream_health"}',
      'gateway_upstream_calls_total{operation="save",outcome="service",blame="upstream_refusal"}',
      'gateway_upstream_calls_total{operation="getAll",outcome="dialect_mismatch",blame="gateway"}',
      'gateway_upstream_breaker_state{origin="api+base+server+studio"}',
      'gateway_draining',
    ]) {
      expect({ series, value: sample(text, series) }).toEqual({ series, value: 0 });
    }
  });

  it('should say which version and commit run', async () => {
    expect(sample(await scrape(h), `gateway_build_info{version="${VERSION}",commit="0a1b2c3d"}`)).toBe(1);
  });

  it('should give each capped resource its cap beside its use', async () => {
    const text = await scrape(h);
    const caps = {
      gateway_connections_limit: 300,
      gateway_connections_waiting_limit: 300,
      gateway_connections_waiting: 0,
      gateway_requests_in_flight_limit: 300,
      gateway_request_body_bytes_limit: 16_777_216,
      gateway_upstream_slots_limit: 12,
      gateway_upstream_queued_calls_limit: 34,
      gateway_upstream_answer_bytes_limit: 33_554_432,
      gateway_session_revocations_limit: 5000,
      gateway_login_tracked_counters_limit: 7000,
      gateway_cpu_share_waiting_requests_limit: 4096,
      gateway_cpu_share_waiting_requests: 0,
    };
    expect(samples(text, Object.keys(caps))).toEqual(caps);
    // The scrape is itself an open connection and a running request.
    expect(sample(text, 'gateway_connections_open')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_requests_in_flight')).toBeGreaterThanOrEqual(1);
  });

  it('should count a logout among the revocation entries', async () => {
    const before = sample(await scrape(h), 'gateway_session_revocations') ?? Number.NaN;
    const token = await h.login();
    const answer = await postGraphql(
      h.graphqlUrl,
      'mutation { logout }',
      {},
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(codesOf(answer)).toEqual([]);
    expect(sample(await scrape(h), 'gateway_session_revocations')).toBe(before + 1);
  });

  it("should label a caller's mistake caller, and a named operation that fails validation other", async () => {
    const answer = await postGraphql(h.graphqlUrl, 'query NeverValid { me { nope } }');
    expect(codesOf(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(
      sample(
        await scrape(h),
        'gateway_graphql_operations_total{operation="other",type="unknown",outcome="GRAPHQL_VALIDATION_FAILED",blame="caller"}',
      ),
    ).toBe(1);
  });

  it('should have no gateway_redis_up without Redis, and show it once the Redis connection reports', async () => {
    expect(await scrape(h)).not.toContain('gateway_redis_up');
    h.gateway.metrics.trackRedis(quietRedisReadings(false));
    expect(sample(await scrape(h), 'gateway_redis_up')).toBe(0);
    expect(sample(await scrape(h), 'gateway_redis_full')).toBe(0);
  });

  it('should show draining from SIGTERM on', async () => {
    h.gateway.startDraining();
    expect(sample(await scrape(h), 'gateway_draining')).toBe(1);
  });
});

describe('with no upstream listening', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    // A port that was free a moment ago: connections to it are refused.
    gateway = await startGateway({
      upstreamUrl: await refusingUrl(),
      env: { UPSTREAM_READ_RETRIES: '0' },
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it("should blame the upstream's health for a refused connection, in the operation and the call", async () => {
    expect(codesOf(await gateway.post(LOGIN))).toEqual(['UPSTREAM_UNAVAILABLE']);
    const text = await scrape(gateway);
    expect(
      sample(
        text,
        'gateway_graphql_operations_total{operation="anonymous",type="mutation",outcome="UPSTREAM_UNAVAILABLE",blame="upstream_health"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'gateway_upstream_calls_total{operation="loginJson",outcome="unavailable",blame="upstream_health"}',
      ),
    ).toBe(1);
  });
});

describe('with an upstream that holds its answer', () => {
  const ANNOUNCED = 200_000;
  let upstream: Server;
  const held: ServerResponse[] = [];
  let gateway: TestGateway;
  beforeAll(async () => {
    // Announces a large answer, sends a little of it, and holds the rest.
    upstream = createServer((_request, response) => {
      held.push(response);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ANNOUNCED) });
      response.write('{"status"');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    gateway = await startGateway({ upstreamUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    await gateway.close();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) =>
      upstream.close(() => {
        resolve();
      }),
    );
  });

  it('should show the bulkhead slot and the announced answer bytes in use while the call runs', async () => {
    const login = gateway.post(LOGIN);
    let text = await scrape(gateway);
    // Until the held answer's headers have arrived (no time limit: the test's own timeout bounds it).
    while (sample(text, 'gateway_upstream_answer_bytes_in_use') !== ANNOUNCED) {
      await new Promise((resolve) => setImmediate(resolve));
      text = await scrape(gateway);
    }
    expect(sample(text, 'gateway_upstream_slots_in_use')).toBe(1);
    expect(sample(text, 'gateway_upstream_queued_calls')).toBe(0);
    for (const response of held) response.destroy();
    expect(codesOf(await login)).toEqual(['UPSTREAM_UNAVAILABLE']);
    text = await scrape(gateway);
    expect(sample(text, 'gateway_upstream_slots_in_use')).toBe(0);
    expect(sample(text, 'gateway_upstream_answer_bytes_in_use')).toBe(0);
  });
});
