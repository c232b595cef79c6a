/**
 * `LOG_REQUESTS`: every request logged (`all`, the default outside production), or only failed and slow ones
 * (`errors`, production's default), with the operation metrics fed either way; a failed request's line at
 * the level its blame says; `LOG_LEVEL_FORMAT`. A bare app through Fastify's `inject`, and the real gateway
 * in front of the emulator for the lines an operator reads.
 */
import { connect } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDraining, requestHooks } from '../../src/app/request-hooks.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { registerRequestLog, requestIdFor, type LogRequests } from '../../src/observability/request-log.ts';
import { createRequestScopes } from '../../src/observability/request-scope.ts';
import type { TraceContext } from '../../src/observability/tracing/tracing.ts';
import { startHarness, type Harness } from '../support/gateway-harness.ts';
import { LOAN_TYPES } from '../support/post-graphql.ts';
import { lineOf, logCapture } from '../support/log-capture.ts';

/** A bare app with the request log, a GraphQL-like route and a probe; answers the app and its log lines. */
async function createApp(
  logRequests: LogRequests,
  slowRequestMillis?: number,
  levelFormat?: 'number' | 'label',
  successSample?: number,
) {
  const { stream, lines } = logCapture();
  const metrics = createMetrics();
  // As a trusted document's operation: a name counts under itself only when vouched for.
  metrics.admitOperationName('Probe', { trusted: true });
  const scopes = createRequestScopes();
  const logger: FastifyBaseLogger = createLogger({ level: 'debug', stream, levelFormat });
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdFor,
  });
  const scopeOf = registerRequestLog(app, {
    scopes,
    metrics,
    requestTimeoutMillis: 1000,
    graphqlPath: '/graphql',
    logRequests,
    slowRequestMillis,
    successSample,
  });
  app.post('/graphql', async (request) => {
    const body = request.body as { fail?: boolean; waitMillis?: number; code?: string; blame?: string };
    const scope = scopes.current();
    if (scope !== undefined) scope.operationName = 'Probe';
    if (body.waitMillis !== undefined) await new Promise((resolve) => setTimeout(resolve, body.waitMillis));
    if (body.fail === true) scopeOf(request)?.errorCodes.push(body.code ?? 'UPSTREAM_ERROR');
    if (body.blame !== undefined) scopeOf(request)?.errorBlames.push(body.blame);
    return { data: {} };
  });
  app.get('/healthz', () => ({ status: 'ok' }));
  await app.ready();
  const post = (id: string, body: object) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'x-request-id': id }, payload: body });
  return { app, metrics, lines, post };
}

describe('request log', () => {
  it('should log every request with LOG_REQUESTS=all, GraphQL at info and probes at debug', async () => {
    const { app, lines, post } = await createApp('all');
    await post('ok-1', {});
    await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'probe-1' } });
    expect(lines().find((line) => line.reqId === 'ok-1')).toMatchObject({
      msg: 'graphql request',
      level: 30,
      operation: 'Probe',
      outcome: 'ok',
    });
    expect(lines().find((line) => line.reqId === 'probe-1')).toMatchObject({
      msg: 'http request',
      level: 20,
      status: 200,
    });
    await app.close();
  });

  it('should log only failed requests with LOG_REQUESTS=errors, and still count every one', async () => {
    const { app, metrics, lines, post } = await createApp('errors');
    await post('ok-2', {});
    await post('failed-2', { fail: true, blame: 'upstream_refusal' });
    await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'missing-2' } });
    const ids = lines().map((line) => line.reqId);
    expect(ids).not.toContain('ok-2');
    expect(lines().find((line) => line.reqId === 'failed-2')).toMatchObject({
      msg: 'graphql request',
      outcome: 'UPSTREAM_ERROR',
      errors: ['UPSTREAM_ERROR'],
    });
    expect(lines().find((line) => line.reqId === 'missing-2')).toMatchObject({ outcome: 'HTTP_404' });
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'gateway_graphql_operations_total{operation="Probe",type="unknown",outcome="ok",blame="none"} 1',
    );
    expect(text).toContain(
      'gateway_graphql_operations_total{operation="Probe",type="unknown",outcome="UPSTREAM_ERROR",blame="upstream_refusal"} 1',
    );
    await app.close();
  });

  it('should log every fourth successful request with LOG_REQUESTS=errors and LOG_REQUESTS_SAMPLE=0.25', async () => {
    const { app, lines, post } = await createApp('errors', undefined, undefined, 0.25);
    for (let i = 1; i <= 8; i++) await post(`ok-${i}`, {});
    await post('failed-9', { fail: true, blame: 'upstream_refusal' });
    expect(lines().map((line) => line.reqId)).toEqual(['ok-4', 'ok-8', 'failed-9']);
    await app.close();
  });

  it('should log a slow request with LOG_REQUESTS=errors even when it succeeded', async () => {
    const { app, lines, post } = await createApp('errors', 20);
    await post('fast-3', {});
    await post('slow-3', { waitMillis: 40 });
    expect(lines().map((line) => line.reqId)).not.toContain('fast-3');
    const slow = lines().find((line) => line.reqId === 'slow-3');
    expect(slow).toMatchObject({ msg: 'graphql request', outcome: 'ok' });
    expect(slow?.durationMs).toBeGreaterThanOrEqual(20);
    await app.close();
  });

  it('should return the request id whether or not the request is logged', async () => {
    const { app, post } = await createApp('errors');
    const answer = await post('quiet-4', {});
    expect(answer.headers['x-request-id']).toBe('quiet-4');
    await app.close();
  });
});

describe('the level of a failed request', () => {
  it.each([
    ['the caller', 'BAD_USER_INPUT', 'caller', 30],
    ["the upstream's refusal", 'UPSTREAM_ERROR', 'upstream_refusal', 40],
    ["the upstream's ill health", 'UPSTREAM_UNAVAILABLE', 'upstream_health', 40],
    ["the gateway's own", 'INTERNAL_SERVER_ERROR', 'gateway', 50],
  ])('should log a failure blamed on %s (%s, %s) at level %i', async (_whose, code, blame, level) => {
    const { app, lines, post } = await createApp('errors');
    await post('blamed', { fail: true, code, blame });
    expect(lines().find((line) => line.reqId === 'blamed')).toMatchObject({ level, outcome: code });
    await app.close();
  });

  it('should take the worst blame of several errors', async () => {
    const { app, lines, post } = await createApp('all');
    await post('mixed', { fail: true, code: 'BAD_USER_INPUT', blame: 'caller' });
    await post('mixed-2', { fail: true, code: 'UPSTREAM_UNAVAILABLE', blame: 'upstream_health' });
    expect(lines().find((line) => line.reqId === 'mixed')?.level).toBe(30);
    expect(lines().find((line) => line.reqId === 'mixed-2')?.level).toBe(40);
    await app.close();
  });

  it('should write the level as its name with LOG_LEVEL_FORMAT=label', async () => {
    const { app, lines, post } = await createApp('all', undefined, 'label');
    await post('named', {});
    await post('named-failed', { fail: true, code: 'INTERNAL_SERVER_ERROR', blame: 'gateway' });
    await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'named-probe' } });
    expect(lines().find((line) => line.reqId === 'named')?.level).toBe('info');
    expect(lines().find((line) => line.reqId === 'named-failed')?.level).toBe('error');
    expect(lines().find((line) => line.reqId === 'named-probe')?.level).toBe('debug');
    await app.close();
  });
});

describe('request lines of the real gateway, by blame', () => {
  let h: Harness;
  const log = logCapture();
  const line = (id: string) => lineOf(log.lines(), id);

  beforeAll(async () => {
    h = await startHarness({
      logStream: log.stream,
      listen: false,
      env: { LOG_LEVEL: 'info', LOG_LEVEL_FORMAT: 'label', LOG_REQUESTS: 'errors' },
    });
  });

  afterAll(async () => {
    await h.close();
  });

  it("should log a caller's mistake at info and an unavailable upstream at warn", async () => {
    const auth = { authorization: `Bearer ${await h.login()}` };
    await h.post(LOAN_TYPES, {}, { 'x-request-id': 'no-session' });
    await h.post('{ loanTypes(first: "x") { totalCount } }', {}, { ...auth, 'x-request-id': 'invalid' });
    h.emulator.setFaults({ every: 1, mode: 'error500', operations: ['getAll'] });
    try {
      await h.post(LOAN_TYPES, {}, { ...auth, 'x-request-id': 'sick-upstream' });
    } finally {
      h.emulator.setFaults({});
    }
    // The logger writes through a buffer flushed at least every second.
    await expect.poll(() => line('sick-upstream')).toBeDefined();
    expect(line('no-session')).toMatchObject({ level: 'info', outcome: 'UNAUTHENTICATED' });
    expect(line('invalid')).toMatchObject({ level: 'info', outcome: 'GRAPHQL_VALIDATION_FAILED' });
    expect(line('sick-upstream')).toMatchObject({ level: 'warn', outcome: 'UPSTREAM_UNAVAILABLE' });
  });
});

describe('busy answers in the request log', () => {
  it("should log a full gateway's 503 at error and an address over its share at info", async () => {
    const { stream, lines } = logCapture();
    const config = loadConfig({
      MAX_BODY_BYTES: '1024',
      MAX_INFLIGHT_BODY_BYTES: '2048',
      MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS: '1024',
      LOG_REQUESTS: 'errors',
    });
    const logger: FastifyBaseLogger = createLogger({ level: 'debug', stream, levelFormat: 'label' });
    const app = Fastify({
      loggerInstance: logger,
      logController: new LogController({ disableRequestLogging: true }),
      genReqId: requestIdFor,
    });
    await app.register(requestHooks, {
      config,
      scopes: createRequestScopes(),
      metrics: createMetrics(),
      graphqlPath: '/graphql',
      trustedDocuments: undefined,
      tracing: undefined,
      draining: createDraining(),
    });
    app.post('/graphql', () => ({ data: {} }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const sockets = [] as ReturnType<typeof connect>[];
    const send = (localAddress: string, id: string, declared: number, body: string) => {
      const socket = connect({ host: '127.0.0.1', port, localAddress });
      socket.on('error', () => undefined);
      sockets.push(socket);
      socket.write(
        `POST /graphql HTTP/1.1\r\nhost: x\r\nx-request-id: ${id}\r\ncontent-type: application/json\r\ncontent-length: ${String(declared)}\r\n\r\n${body}`,
      );
    };
    const line = (id: string) => lineOf(lines(), id);
    try {
      // Two addresses hold 2,000 bytes that have arrived, of bodies still arriving.
      send('127.0.0.2', 'slow-2', 1_024, `{"q":"${'x'.repeat(994)}`);
      send('127.0.0.3', 'slow-3', 1_024, `{"q":"${'x'.repeat(994)}`);
      // Time for the gateway to count those bytes (a second: a loaded machine reads its sockets late).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      send('127.0.0.4', 'gateway-full', 100, `{"q":"${'x'.repeat(92)}"}`);
      send('127.0.0.2', 'over-share', 100, `{"q":"${'x'.repeat(92)}"}`);
      await expect.poll(() => [line('gateway-full'), line('over-share')].includes(undefined)).toBe(false);
      expect(line('gateway-full')).toMatchObject({ level: 'error', outcome: 'GATEWAY_BUSY', status: 503 });
      expect(line('over-share')).toMatchObject({ level: 'info', outcome: 'GATEWAY_BUSY', status: 503 });
    } finally {
      for (const socket of sockets) socket.destroy();
      await app.close();
    }
  });
});

describe('lines written inside a span', () => {
  it("should carry the active span's trace_id, span_id and trace_flags, a line's own fields first", () => {
    const { stream, lines } = logCapture();
    const active: { span?: TraceContext } = {};
    const logger = createLogger({ level: 'info', stream, traceContext: () => active.span });
    logger.info('outside');
    active.span = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
    logger.warn({ origin: 'http://up.test' }, 'upstream circuit breaker open');
    logger.info({ span_id: 'c'.repeat(16) }, 'request line');
    const [outside, inside, own] = lines();
    expect(outside).not.toHaveProperty('trace_id');
    expect(inside).toMatchObject({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), trace_flags: '01' });
    expect(own).toMatchObject({ trace_id: 'a'.repeat(32), span_id: 'c'.repeat(16) });
  });
});

describe('LOG_LEVEL_FORMAT', () => {
  it('should default to number and take label, refusing anything else', () => {
    expect(loadConfig({}).logLevelFormat).toBe('number');
    expect(loadConfig({ LOG_LEVEL_FORMAT: 'label' }).logLevelFormat).toBe('label');
    expect(() => loadConfig({ LOG_LEVEL_FORMAT: 'text' })).toThrow(/LOG_LEVEL_FORMAT/);
  });
});

describe('LOG_REQUESTS', () => {
  const up = 'http://upstream.test';
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: 's'.repeat(48),
    APPLICATION_CODE: 'demo',
    ORGANIZATION_CODE: 'acme',
    ...{ API_URL: up, BASE_URL: up, STUDIO_URL: up, SERVER_URL: up },
  };

  it('should default to errors in production and to all elsewhere', () => {
    expect(loadConfig({}).logRequests).toBe('all');
    expect(loadConfig(production).logRequests).toBe('errors');
  });

  it('should take all or errors, and refuse anything else', () => {
    expect(loadConfig({ LOG_REQUESTS: 'errors' }).logRequests).toBe('errors');
    expect(loadConfig({ LOG_REQUESTS: 'all' }).logRequests).toBe('all');
    expect(() => loadConfig({ LOG_REQUESTS: 'some' })).toThrow(/LOG_REQUESTS/);
  });
});
