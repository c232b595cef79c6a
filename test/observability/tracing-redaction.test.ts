/**
 * What a span may not hold, and what may not be exported at all: the real command (`node src/main.ts`)
 * exports to an OTLP receiver that keeps every span; after a login, filtered reads (a literal and a GET's
 * variables), a write whose data travels in the upstream's query string, and requests refused at parsing and
 * validation that quote a literal, every attribute value of every span and span event is searched for the
 * password, the session token, the upstream's apiToken, the username and each filter and data value.
 * Also: no span outside a request (the schema's parse at start), refusals recorded on the server span,
 * and no metrics pushed unless `OTEL_METRICS_EXPORTER` asks.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../support/child-process.ts';
import { startGatewayCommand, type GatewayCommand } from '../../support/gateway-command.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { attribute, SpanKindNumber, startOtlpReceiver, type OtlpSpan } from '../support/otlp-receiver.ts';
import { spanAttributeValues as attributeValues } from '../support/span-attribute-values.ts';
import { startTracedGatewayCommand } from '../support/traced-gateway-command.ts';
import { useOtlpReceiver } from '../support/use-otlp-receiver.ts';
import { startNotingProxy } from '../support/servers/forward-request.ts';
import type { Listening } from '../support/servers/listen-on-loopback.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const LOAN = 'com.example.LoanType';
const USERNAME = 'demo';
const PASSWORD = 'demo-password';
const LITERAL_FILTER = 'LiteralFilter7Qx';
const VARIABLE_FILTER = 'VariableFilter9Kw';
const SECRET_DATA = 'SecretData3Zp';
const VALIDATION_LITERAL = 'ValidationLiteral5Tr';
const PARSE_LITERAL = 'ParseLiteral8Uv';
/** One trace per request, so each request's server span can be found. */
const TRACES = {
  literal: '11111111111111111111111111111111',
  variables: '22222222222222222222222222222222',
  update: '33333333333333333333333333333333',
  invalid: '44444444444444444444444444444444',
  unparsable: '55555555555555555555555555555555',
  tooLarge: '66666666666666666666666666666666',
} as const;

const { emulator } = useEmulator();
const receiver = useOtlpReceiver();
let proxy: Listening;
let gateway: GatewayCommand;
let token: string;
/** Every `apiToken` the upstream was sent, read from the query strings passing the proxy. */
const apiTokens = new Set<string>();

function traceparent(traceId: string): Record<string, string> {
  return { traceparent: `00-${traceId}-00f067aa0ba902b7-01` };
}

async function post(body: object, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  return response.json();
}

/** The tenant the server span names: the demo's application is called `demo`, as its user is. */
const TENANT_ATTRIBUTES = ['gateway.application', 'gateway.organization'];

beforeAll(async () => {
  proxy = await startNotingProxy(emulator.url, (req) => {
    const found = new URL(req.url ?? '/', 'http://x').searchParams.get('apiToken');
    if (found !== null && found !== '') apiTokens.add(found);
  });
  gateway = await startTracedGatewayCommand(proxy.url, receiver, {
    // Were metrics exported, they would be pushed this often.
    OTEL_METRIC_EXPORT_INTERVAL: '200',
    UPSTREAM_PROPAGATE_TRACE: 'true',
  });
  const login = (await post({
    query: `mutation { login(username: "${USERNAME}", password: "${PASSWORD}") { token } }`,
  })) as { data: { login: { token: string } } };
  token = login.data.login.token;

  const first = (await post({ query: `{ objects(objectName: "${LOAN}", first: 1) { nodes { id } } }` })) as {
    data: { objects: { nodes: { id: string }[] } };
  };
  const id = first.data.objects.nodes[0]?.id ?? '';
  await post(
    {
      query: `query Literal { objects(objectName: "${LOAN}", first: 3, filter: { criteria: [
        { fieldName: "name", operator: contains, value: "${LITERAL_FILTER}" }] }) { totalCount } }`,
    },
    traceparent(TRACES.literal),
  );

  const variables = new URLSearchParams({
    query: `query Variables($v: String) { objects(objectName: "${LOAN}", first: 2, filter: { criteria: [
      { fieldName: "name", operator: contains, value: $v }] }) { totalCount } }`,
    variables: JSON.stringify({ v: VARIABLE_FILTER }),
  });
  await fetch(`${gateway.graphqlUrl}?${variables.toString()}`, {
    headers: {
      authorization: `Bearer ${token}`,
      'apollo-require-preflight': 'true',
      ...traceparent(TRACES.variables),
    },
  });

  await post(
    {
      query: `mutation Update($id: ID!, $data: JSONObject!) {
        updateObject(id: $id, objectName: "${LOAN}", data: $data) { id } }`,
      variables: { id, data: { description: SECRET_DATA } },
    },
    traceparent(TRACES.update),
  );
  await post(
    {
      query: `query Invalid { objects(objectName: "${LOAN}", first: "${VALIDATION_LITERAL}") { totalCount } }`,
    },
    traceparent(TRACES.invalid),
  );
  await post(
    {
      query: `query Unparsable { objects(objectName: "x" "${PARSE_LITERAL}") }`,
      operationName: 'Unparsable',
    },
    traceparent(TRACES.unparsable),
  );
  await post({ query: `{ __typename }`, padding: 'x'.repeat(200_000) }, traceparent(TRACES.tooLarge));
  await receiver.waitFor(() =>
    Object.values(TRACES).every((traceId) =>
      receiver.spans().some((s) => s.traceId === traceId && s.kind === SpanKindNumber.SERVER),
    ),
  );
  // A few export intervals, for metrics that should not come.
  await sleep(1000);
});

afterAll(async () => {
  await stopProcess(gateway.process, 0, 'SIGKILL');
  await proxy.close();
});

/** The server span of the request sent in `traceId`. */
function serverSpan(traceId: string): OtlpSpan | undefined {
  return receiver.spans().find((s) => s.traceId === traceId && s.kind === SpanKindNumber.SERVER);
}

describe('what spans never hold', () => {
  it('should have exported the spans of every request, upstream HTTP calls included', () => {
    expect(apiTokens.size).toBeGreaterThan(0);
    for (const traceId of [TRACES.literal, TRACES.variables, TRACES.update]) {
      const clients = receiver
        .spans()
        .filter((s) => s.traceId === traceId && s.kind === SpanKindNumber.CLIENT);
      expect(clients.length, traceId).toBeGreaterThan(0);
    }
  });

  it.each([
    ['the password', PASSWORD],
    ['the username', USERNAME],
    ['a literal filter value', LITERAL_FILTER],
    ['a filter value sent as a variable', VARIABLE_FILTER],
    ["a write's data", SECRET_DATA],
    ['a literal quoted by a validation error', VALIDATION_LITERAL],
    ['a literal quoted by a syntax error', PARSE_LITERAL],
  ])('should keep %s out of every attribute of every span', (_what, value) => {
    const leaking = attributeValues(receiver.spans(), TENANT_ATTRIBUTES).filter((text) =>
      text.includes(value),
    );
    expect(leaking).toEqual([]);
  });

  it('should name the tenant of a session on its server span, and nothing else there', () => {
    const tenants = receiver
      .spans()
      .filter((span) => span.kind === SpanKindNumber.SERVER)
      .flatMap((span) => (span.attributes ?? []).filter((a) => TENANT_ATTRIBUTES.includes(a.key)))
      .map((a) => `${a.key}=${JSON.stringify(a.value)}`);
    expect(new Set(tenants)).toEqual(
      new Set(['gateway.application={"stringValue":"demo"}', 'gateway.organization={"stringValue":"acme"}']),
    );
  });

  it("should keep the session token and the upstream's apiToken out of every attribute", () => {
    const values = attributeValues(receiver.spans());
    for (const secret of [token, ...apiTokens]) {
      expect(values.filter((text) => text.includes(secret))).toEqual([]);
    }
  });

  it('should keep the upstream URL with its parameter names, every value REDACTED', () => {
    // The update's own call: the trace also holds the read of its object before it.
    const update = receiver
      .spans()
      .find(
        (s) =>
          s.traceId === TRACES.update &&
          s.kind === SpanKindNumber.CLIENT &&
          String(attribute(s, 'url.full')).includes('/update/'),
      );
    const query = String(attribute(update, 'url.query'));
    expect(query).toContain('data=REDACTED');
    expect(query).toContain('apiToken=REDACTED');
    expect(query.split('&').every((pair) => !pair.includes('=') || pair.endsWith('=REDACTED'))).toBe(true);
  });
});

describe('spans outside requests, and refusals', () => {
  it('should export no span outside a request: no graphql.parseSchema trace per start', () => {
    const spans = receiver.spans();
    expect(spans.filter((s) => s.name.startsWith('graphql.parseSchema'))).toEqual([]);
    expect(spans.filter((s) => s.name.startsWith('graphql.validateSchema'))).toEqual([]);
    const requestTraces = new Set(
      spans.filter((s) => s.kind === SpanKindNumber.SERVER).map((s) => s.traceId),
    );
    expect(spans.filter((s) => !requestTraces.has(s.traceId)).map((s) => s.name)).toEqual([]);
  });

  it.each([
    ['a validation failure', TRACES.invalid, 'GRAPHQL_VALIDATION_FAILED', 'Invalid'],
    ['a syntax error', TRACES.unparsable, 'GRAPHQL_PARSE_FAILED', 'Unparsable'],
    ['a body too large, refused before GraphQL', TRACES.tooLarge, 'BODY_TOO_LARGE', undefined],
  ])('should record %s on the server span, with the operation name', (_what, traceId, code, name) => {
    const span = serverSpan(traceId);
    expect(attribute(span, 'error.type')).toBe(code);
    expect(span?.status?.code).toBe(2);
    expect(attribute(span, 'graphql.operation.name')).toBe(name);
    const exception = span?.events?.find((event) => event.name === 'exception');
    expect(attribute(exception, 'exception.type')).toBe(code);
  });

  it('should leave a request that ran without an error.type', () => {
    expect(attribute(serverSpan(TRACES.literal), 'error.type')).toBeUndefined();
    expect(attribute(serverSpan(TRACES.literal), 'graphql.operation.name')).toBe('Literal');
  });
});

describe('OTLP metrics', () => {
  it('should push no metrics unless OTEL_METRICS_EXPORTER asks', () => {
    expect(receiver.paths()).toContain('/v1/traces');
    expect(receiver.paths().filter((path) => path !== '/v1/traces')).toEqual([]);
  });

  it('should push them with OTEL_METRICS_EXPORTER=otlp', async () => {
    const metricsReceiver = await startOtlpReceiver();
    const withMetrics = await startGatewayCommand({
      upstreamUrl: emulator.url,
      objectTypesDir: DEMO_OBJECTS_DIR,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: metricsReceiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_METRIC_EXPORT_INTERVAL: '200',
      },
    });
    try {
      await fetch(withMetrics.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      await metricsReceiver.waitFor(() => metricsReceiver.paths().includes('/v1/metrics'));
      expect(metricsReceiver.paths()).toContain('/v1/metrics');
    } finally {
      await stopProcess(withMetrics.process, 0, 'SIGKILL');
      await metricsReceiver.close();
    }
  });
});
