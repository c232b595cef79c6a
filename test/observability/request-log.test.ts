/**
 * `LOG_REQUESTS`: every request logged (`all`, the default outside production), or only failed and slow ones
 * (`errors`, production's default), with the operation metrics fed either way. Fastify's `inject`: no network.
 */
import { PassThrough } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { registerRequestLog, requestIdFor, type LogRequests } from '../../src/observability/request-log.ts';
import { createRequestScopes } from '../../src/observability/request-scope.ts';

interface LogLine {
  msg: string;
  reqId?: string;
  outcome?: string;
  [key: string]: unknown;
}

/** A bare app with the request log, a GraphQL-like route and a probe; answers the app and its log lines. */
async function createApp(logRequests: LogRequests | undefined, slowRequestMillis?: number) {
  const raw: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => raw.push(chunk.toString('utf8')));
  const metrics = createMetrics();
  const scopes = createRequestScopes();
  const logger: FastifyBaseLogger = createLogger({ level: 'debug', stream });
  const app = Fastify({
    loggerInstance: logger,
    disableRequestLogging: true,
    genReqId: requestIdFor,
  });
  const scopeOf = registerRequestLog(app, {
    scopes,
    metrics,
    requestTimeoutMillis: 1000,
    graphqlPath: '/graphql',
    logRequests,
    slowRequestMillis,
  });
  app.post('/graphql', async (request) => {
    const body = request.body as { fail?: boolean; waitMillis?: number };
    const scope = scopes.current();
    if (scope !== undefined) scope.operationName = 'Probe';
    if (body.waitMillis !== undefined) await new Promise((resolve) => setTimeout(resolve, body.waitMillis));
    if (body.fail === true) scopeOf(request)?.errorCodes.push('UPSTREAM_ERROR');
    return { data: {} };
  });
  app.get('/healthz', () => ({ status: 'ok' }));
  await app.ready();
  const lines = (): LogLine[] =>
    raw
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
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
    await post('failed-2', { fail: true });
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
      'gateway_graphql_operations_total{operation="Probe",type="unknown",outcome="ok"} 1',
    );
    expect(text).toContain(
      'gateway_graphql_operations_total{operation="Probe",type="unknown",outcome="UPSTREAM_ERROR"} 1',
    );
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
