/**
 * Observability: one log line per request with the operation and its upstream cost, request ids, redaction
 * of credentials at every layer, and the Prometheus metrics.
 */
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.ts';
import { MAX_OPERATION_NAMES, createMetrics } from '../../src/observability/metrics.ts';
import { REDACTED, createTextRedactor, redactObject, redactUrl } from '../../src/observability/redact.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES, codesOf, postGraphql } from '../support/post-graphql.ts';
import { logCapture } from '../support/log-capture.ts';

let auth: Record<string, string>;
const { stream: logStream, lines } = logCapture();
const h = useHarness({ logStream, env: { LOG_LEVEL: 'info' } });
beforeAll(async () => {
  auth = { authorization: `Bearer ${await h.login()}` };
});

describe('request log', () => {
  it('should write exactly one line per GraphQL request with operation, duration, upstream calls and outcome', async () => {
    const answer = await postGraphql(
      h.graphqlUrl,
      LOAN_TYPES,
      {},
      { ...auth, 'x-request-id': 'req-loan-types-1' },
    );
    expect(answer.errors).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const mine = lines().filter((l) => l.reqId === 'req-loan-types-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      msg: 'graphql request',
      level: 30,
      method: 'POST',
      url: '/graphql',
      status: 200,
      operation: 'LoanTypes',
      operationType: 'query',
      upstreamCalls: 1,
      outcome: 'ok',
    });
    expect(mine[0]?.durationMs).toEqual(expect.any(Number));
    expect(mine[0]?.upstreamMs).toEqual(expect.any(Number));
  });

  it('should log the error code as the outcome of a failed request', async () => {
    await postGraphql(h.graphqlUrl, LOAN_TYPES, {}, { 'x-request-id': 'req-no-session' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const line = lines().find((l) => l.reqId === 'req-no-session');
    expect(line).toMatchObject({ outcome: 'UNAUTHENTICATED', errors: ['UNAUTHENTICATED'], upstreamCalls: 0 });
  });
});

describe('request ids', () => {
  it('should return the caller’s x-request-id', async () => {
    const answer = await postGraphql(
      h.graphqlUrl,
      '{ me { username } }',
      {},
      { 'x-request-id': 'abc-123.def' },
    );
    expect(answer.headers.get('x-request-id')).toBe('abc-123.def');
  });

  it('should generate a request id when none is sent', async () => {
    const answer = await postGraphql(h.graphqlUrl, '{ me { username } }');
    expect(answer.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it.each([
    ['too long', 'x'.repeat(200)],
    ['with spaces and quotes', 'a "b" c'],
  ])('should replace an x-request-id that is %s', async (_name, id) => {
    const answer = await postGraphql(h.graphqlUrl, '{ me { username } }', {}, { 'x-request-id': id });
    expect(answer.headers.get('x-request-id')).not.toBe(id);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('redaction', () => {
  it('should redact credentials in objects, URLs and text, and every configured secret', () => {
    const out: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => out.push(chunk.toString('utf8')));
    const secret = 'the-session-secret-0123456789-abcdefghij';
    const logger = createLogger({ level: 'trace', stream, secrets: [secret, 'redis-pass-77'] });
    logger.info({
      password: 'pw-1',
      nested: { deeper: [{ apiToken: 'tok-2' }], Authorization: 'Bearer tok-3' },
    });
    logger.info({ headers: { authorization: 'Bearer tok-4', 'x-api-token': 'tok-5' } }, 'headers');
    logger.warn(`failed GET /studio/jsonp/getAll?objectName=X&apiToken=tok-6&username=demo`);
    logger.error(new Error('upstream said {"status":"error","token":"tok-7","password":"pw-8"}'));
    logger.info({
      req: { method: 'GET', url: '/graphql?query=mutation{login(password:"pw-9")}&token=tok-10' },
    });
    logger.info(`config loaded with ${secret} and redis://:redis-pass-77@redis:6379`);
    logger.info('mutation { login(username: "demo", password: "pw-11") { token } }');
    const text = out.join('');
    for (const leaked of [
      'pw-1',
      'tok-2',
      'tok-3',
      'tok-4',
      'tok-5',
      'tok-6',
      'tok-7',
      'pw-8',
      'pw-9',
      'tok-10',
      'pw-11',
    ]) {
      expect(text).not.toContain(leaked);
    }
    expect(text).not.toContain(secret);
    expect(text).not.toContain('redis-pass-77');
    expect(text).toContain('[Redacted]');
    expect(text).toContain('username=demo');
  });

  it('should keep harmless query parameters and drop GraphQL documents and variables from URLs', () => {
    expect(redactUrl('/graphql?query=%7Bme%7D&variables=%7B%22password%22%3A1%7D&operationName=Me')).toBe(
      '/graphql?query=[Redacted]&variables=[Redacted]&operationName=Me',
    );
    expect(redactUrl('/x?Api_Token=a&page=2')).toBe('/x?Api_Token=[Redacted]&page=2');
    expect(redactUrl('/plain')).toBe('/plain');
  });

  const CREDENTIAL_NAMES = [
    'pwd',
    'pass',
    'db-pass',
    'jwt',
    'id_jwt',
    'session',
    'sessionId',
    'session_token',
    'JSESSIONID',
    'PHPSESSID',
    'key',
    'api_key',
    'apiKey',
    'x-api-key',
    'privateKey',
    'secret',
    'client_secret',
    'token',
    'access_token',
    'auth',
  ];
  const HARMLESS_NAMES = [
    'username',
    'page',
    'pageSize',
    'keyboard',
    'passed',
    'objectName',
    'operationName',
  ];

  it.each(CREDENTIAL_NAMES)('should redact %s in URLs, objects and text', (name) => {
    expect(redactUrl(`/x?page=2&${name}=cred-1`)).toBe(`/x?page=2&${name}=[Redacted]`);
    expect(redactObject({ nested: { [name]: 'cred-2' } })).toEqual({ nested: { [name]: REDACTED } });
    const line = createTextRedactor([])(
      `{"msg":"upstream said {\\"${name}\\":\\"cred-3\\"} for GET /x?${name}=cred-4","${name}":"cred-5"}`,
    );
    expect(line).not.toMatch(/cred-\d/);
  });

  it.each([
    ['a Cookie header', 'sent Cookie: SID=cred-1; route=cred-2 upstream'],
    ['a Set-Cookie header', 'answered set-cookie: JSESSIONID=cred-3; Path=/; HttpOnly'],
    ['a session cookie in an object', { sessionCookie: 'SID=cred-4' }],
  ])('should redact %s whatever the cookies are called', (_what, logged) => {
    // Both layers, as the logger applies them: the object's keys, then the line as text.
    const line = createTextRedactor([])(
      JSON.stringify(redactObject({ msg: 'upstream call', detail: logged })),
    );
    expect(line).not.toMatch(/cred-\d/);
    expect(line).toContain(REDACTED);
  });

  it.each(HARMLESS_NAMES)('should keep %s in URLs, objects and text', (name) => {
    expect(redactUrl(`/x?${name}=value-1`)).toBe(`/x?${name}=value-1`);
    expect(redactObject({ [name]: 'value-2' })).toEqual({ [name]: 'value-2' });
    const line = `{"msg":"GET /x?${name}=value-3 with key material","${name}":"value-4"}`;
    expect(createTextRedactor([])(line)).toBe(line);
  });
});

describe('metrics', () => {
  it('should expose every metric family in the Prometheus text format', async () => {
    await postGraphql(h.graphqlUrl, LOAN_TYPES, {}, auth);
    const response = await fetch(h.graphqlUrl.replace(/\/graphql$/, '/metrics'));
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    for (const family of [
      'gateway_graphql_operations_total{operation="LoanTypes",type="query",outcome="ok",blame="none"}',
      'gateway_graphql_operation_duration_seconds_bucket{le="0.005",operation="LoanTypes"',
      'gateway_upstream_calls_total{operation="getAll",outcome="ok",blame="none"}',
      'gateway_upstream_call_duration_seconds_bucket{le="0.005",operation="getAll",outcome="ok",blame="none"}',
      'gateway_loader_batch_size_bucket{le="1",loader="page"}',
      'gateway_upstream_breaker_state{origin=',
      '# TYPE gateway_login_blocks_total counter',
      '# TYPE gateway_upstream_rejections_total counter',
      '# TYPE gateway_upstream_retries_total counter',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(family);
    }
  });

  it('should not let clients create unbounded series through operation names', async () => {
    const metrics = createMetrics();
    for (let i = 0; i < MAX_OPERATION_NAMES + 50; i++) {
      // Vouched for by 25 users, 10 names each: the process-wide cap, not a user's share, is what binds.
      metrics.admitOperationName(`Op${i}`, { user: `user-${i % 25}` });
      metrics.observeOperation({ name: `Op${i}`, type: 'query', outcome: 'ok', seconds: 0.01 });
    }
    metrics.observeOperation({ name: 'not a name {}', type: 'query', outcome: 'ok', seconds: 0.01 });
    const counter = await metrics.registry.getSingleMetric('gateway_graphql_operations_total')?.get();
    const labels = (counter?.values ?? []).map((v) => v.labels.operation);
    expect(labels).toHaveLength(MAX_OPERATION_NAMES + 1);
    expect(labels).toContain('other');
    expect(counter?.values.find((v) => v.labels.operation === 'other')?.value).toBe(51);
  });

  it('should count GraphQL errors by their code', async () => {
    const answer = await postGraphql(h.graphqlUrl, '{ me { nope } }');
    expect(codesOf(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const text = await (await fetch(h.graphqlUrl.replace(/\/graphql$/, '/metrics'))).text();
    expect(text).toMatch(
      /gateway_graphql_operations_total\{operation="anonymous",type="unknown",outcome="GRAPHQL_VALIDATION_FAILED",blame="caller"\} [1-9]/,
    );
  });
});
