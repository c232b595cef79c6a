/**
 * OpenTelemetry end to end: the real command (`node src/main.ts`) with the standard OTEL_* variables,
 * exporting OTLP/HTTP (JSON) to a receiver started here, in front of the emulator through a recording
 * proxy. One GraphQL request with the caller's W3C trace context must arrive as one trace: the server span
 * (the caller's span its parent, the operation named), the operation span (`query Orders`) under it, and
 * under that one HTTP CLIENT span per upstream attempt with the semantic conventions' attributes and the
 * call's operation, batch size and outcome class, whether or not its context reached the upstream; a caller's baggage leaves only as far as `UPSTREAM_BAGGAGE_KEYS` allows; the log line carries the
 * server span's `trace_id`, `span_id` and `trace_flags`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../support/child-process.ts';
import type { GatewayCommand } from '../../support/gateway-command.ts';
import { attribute, SpanKindNumber, type OtlpSpan } from '../support/otlp-receiver.ts';
import { startTracedGatewayCommand } from '../support/traced-gateway-command.ts';
import { useOtlpReceiver } from '../support/use-otlp-receiver.ts';
import { startNotingProxy } from '../support/servers/forward-request.ts';
import type { Listening } from '../support/servers/listen-on-loopback.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const BAGGAGE = 'tenant=acme,user.secret=hunter2-baggage,padding=' + 'x'.repeat(2000);

const { emulator } = useEmulator();
const receiver = useOtlpReceiver();
let proxy: Listening;
let baseUrl: string;
let proxyUrl: string;
const commands: GatewayCommand[] = [];
/** The `traceparent` and `baggage` headers of every upstream call, in order. */
const upstreamTraceparents: string[] = [];
const upstreamBaggage: string[] = [];

const spans = (): OtlpSpan[] => receiver.spans();

/** Starts the real command against the proxy, exporting to the receiver; its output is in `output()`. */
async function startCommand(upstreamUrl: string, env: Record<string, string>): Promise<GatewayCommand> {
  const command = await startTracedGatewayCommand(upstreamUrl, receiver, {
    LOG_LEVEL: 'info',
    OTEL_SERVICE_NAME: 'gateway-under-test',
    ...env,
  });
  commands.push(command);
  return command;
}

/** Everything the started commands wrote. */
const output = (): string =>
  commands.map((command) => `${command.process.stdout()}\n${command.process.stderr()}`).join('\n');

beforeAll(async () => {
  // Forwards to the emulator, noting the trace context and baggage each upstream call carries.
  proxy = await startNotingProxy(emulator.url, (req) => {
    const { traceparent, baggage } = req.headers;
    if (typeof traceparent === 'string') upstreamTraceparents.push(traceparent);
    if (typeof baggage === 'string') upstreamBaggage.push(baggage);
  });
  proxyUrl = proxy.url;
  ({ baseUrl } = await startCommand(proxyUrl, {
    UPSTREAM_PROPAGATE_TRACE: 'true',
    UPSTREAM_BAGGAGE_KEYS: 'tenant',
  }));
});

afterAll(async () => {
  await Promise.all(commands.map((command) => stopProcess(command.process, 0, 'SIGKILL')));
  await proxy.close();
});

async function graphql(
  query: string,
  headers: Record<string, string> = {},
  url: string = baseUrl,
): Promise<unknown> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return response.json();
}

/** The HTTP CLIENT spans of trace `traceId` of its `getAll` calls. */
function getAllClientSpans(traceId: string): OtlpSpan[] {
  return spans().filter(
    (s) =>
      s.traceId === traceId &&
      s.kind === SpanKindNumber.CLIENT &&
      attribute(s, 'gateway.upstream.operation') === 'getAll',
  );
}

describe('tracing switched on by OTEL_* variables, context sent upstream', () => {
  let token: string;
  const ORDERS = 'query Orders { orders(first: 5) { nodes { id customer { id } } } }';

  beforeAll(async () => {
    const login = (await graphql(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    )) as { data: { login: { token: string } } };
    token = login.data.login.token;
    upstreamBaggage.length = 0;
    await graphql(ORDERS, {
      authorization: `Bearer ${token}`,
      traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`,
      baggage: BAGGAGE,
    });
    // The batch processor sends every 100 ms: wait for the spans the tests read (the server span, the
    // operation's, the two upstream calls'), not for a count of spans, which changes with what is traced.
    await receiver.waitFor(
      () =>
        spans().some((s) => s.traceId === TRACE_ID && s.parentSpanId === CALLER_SPAN_ID) &&
        spans().some((s) => s.traceId === TRACE_ID && s.name === 'query Orders') &&
        getAllClientSpans(TRACE_ID).length >= 2,
    );
  });

  it("should make the request one trace under the caller's span, named after its operation", () => {
    const server = spans().find((s) => s.traceId === TRACE_ID && s.parentSpanId === CALLER_SPAN_ID);
    expect(server?.name).toBe('POST /graphql');
    expect(server?.kind).toBe(SpanKindNumber.SERVER);
    expect(attribute(server, 'graphql.operation.name')).toBe('Orders');
    expect(attribute(server, 'graphql.operation.type')).toBe('query');
    const execute = spans().find((s) => s.traceId === TRACE_ID && s.name === 'query Orders');
    expect(attribute(execute, 'graphql.operation.name')).toBe('Orders');
    expect(execute?.parentSpanId).toBe(server?.spanId);
  });

  it('should have a CLIENT span per upstream call under the operation span, with operation, batch size and outcome', () => {
    const trace = spans().filter((s) => s.traceId === TRACE_ID);
    const operation = trace.find((s) => s.name === 'query Orders');
    const clients = getAllClientSpans(TRACE_ID);
    // The page of orders, then one batch for their customers: the batched call in the request's trace too.
    expect(clients).toHaveLength(2);
    expect(clients.map((s) => s.parentSpanId)).toEqual(clients.map(() => operation?.spanId));
    for (const span of clients) expect(attribute(span, 'gateway.upstream.outcome')).toBe('ok');
    expect(clients.map((s) => attribute(s, 'gateway.upstream.batch_size')).sort()).toEqual([5, 5]);
    // No span between the operation and the HTTP attempt when the call went straight through.
    expect(trace.filter((s) => s.name.startsWith('upstream '))).toEqual([]);
  });

  it('should make each upstream call an HTTP CLIENT span by the semantic conventions, its context sent', () => {
    const clients = getAllClientSpans(TRACE_ID);
    expect(clients).toHaveLength(2);
    const proxyPort = Number(new URL(proxyUrl).port);
    for (const client of clients) {
      expect(client.kind).toBe(SpanKindNumber.CLIENT);
      expect(client.name).toBe('GET');
      expect(attribute(client, 'http.request.method')).toBe('GET');
      expect(attribute(client, 'server.address')).toBe('127.0.0.1');
      expect(attribute(client, 'server.port')).toBe(proxyPort);
      expect(attribute(client, 'http.response.status_code')).toBe(200);
      const full = String(attribute(client, 'url.full'));
      expect(full.startsWith(`${proxyUrl}/`)).toBe(true);
      // Names only: every value of the query is redacted.
      expect(full).toMatch(/[?&]apiToken=REDACTED(&|$)/);
      expect(full).toMatch(/[?&]username=REDACTED(&|$)/);
      expect(full).toMatch(/[?&]filterCommand=REDACTED(&|$)/);
      expect(String(attribute(client, 'url.query'))).toBe(full.split('?')[1]);
      expect(upstreamTraceparents).toContain(`00-${TRACE_ID}-${client.spanId}-01`);
    }
  });

  it('should send upstream only the baggage entries UPSTREAM_BAGGAGE_KEYS names', () => {
    expect(upstreamBaggage.length).toBeGreaterThanOrEqual(2);
    for (const header of upstreamBaggage) expect(header).toBe('tenant=acme');
  });

  it("should put the request id and the server span's trace_id, span_id and trace_flags in the log line", async () => {
    interface Line {
      msg?: string;
      operation?: string;
      reqId?: string;
      trace_id?: string;
      span_id?: string;
      trace_flags?: string;
    }
    const logLine = () =>
      output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Line)
        .find((l) => l.msg === 'graphql request' && l.operation === 'Orders');
    // The logger flushes its buffer at least every second.
    for (let i = 0; i < 1_200 && logLine() === undefined; i++) await sleep(50);
    const line = logLine();
    const server = spans().find((s) => s.traceId === TRACE_ID && s.parentSpanId === CALLER_SPAN_ID);
    expect(line?.trace_id).toBe(TRACE_ID);
    expect(line?.span_id).toBe(server?.spanId);
    expect(line?.trace_flags).toBe('01');
    expect(line?.reqId).toMatch(/\S/);
  });

  it('should make no span per resolver unless TRACE_RESOLVERS asks', () => {
    expect(spans().filter((s) => s.traceId === TRACE_ID && s.name.startsWith('resolve '))).toEqual([]);
  });

  it('should keep passwords and tokens out of every span', () => {
    const all = JSON.stringify(spans());
    expect(all).not.toContain('demo-password');
    expect(all).not.toContain(token);
    expect(all).not.toContain('hunter2');
  });
});

describe('tracing with UPSTREAM_PROPAGATE_TRACE off (the default) and TRACE_RESOLVERS on, on a sick upstream', () => {
  const SICK_TRACE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

  beforeAll(async () => {
    // Retries are allowed as a share of recent successes: all of them here, after a few successes below.
    const quiet = await startCommand(proxyUrl, {
      UPSTREAM_RETRY_BUDGET_PERCENT: '100',
      TRACE_RESOLVERS: 'true',
    });
    const login = (await graphql(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
      {},
      quiet.baseUrl,
    )) as { data: { login: { token: string } } };
    const auth = { authorization: `Bearer ${login.data.login.token}` };
    for (let i = 0; i < 3; i++) await graphql('{ loanTypes(first: 1) { totalCount } }', auth, quiet.baseUrl);
    upstreamTraceparents.length = 0;
    upstreamBaggage.length = 0;
    emulator.setFaults({ every: 1, mode: 'error500', operations: ['getAll'] });
    try {
      await graphql(
        'query Sick { loanTypes(first: 1) { totalCount } }',
        { ...auth, traceparent: `00-${SICK_TRACE}-${CALLER_SPAN_ID}-01`, baggage: BAGGAGE },
        quiet.baseUrl,
      );
    } finally {
      emulator.setFaults({});
    }
    // The upstream span and its three attempts.
    await receiver.waitFor(
      () => spans().filter((s) => s.traceId === SICK_TRACE && s.kind === SpanKindNumber.CLIENT).length >= 3,
    );
  });

  it('should send nothing of the trace or the baggage upstream', () => {
    expect(upstreamTraceparents).toEqual([]);
    expect(upstreamBaggage).toEqual([]);
  });

  it('should still make an HTTP CLIENT span per attempt, with the status, error.type and resend count', () => {
    const clients = getAllClientSpans(SICK_TRACE);
    expect(clients).toHaveLength(3);
    for (const client of clients) {
      expect(client.kind).toBe(SpanKindNumber.CLIENT);
      expect(attribute(client, 'server.address')).toBe('127.0.0.1');
      expect(attribute(client, 'http.response.status_code')).toBe(500);
      expect(attribute(client, 'error.type')).toBe('500');
      expect(client.status?.code).toBe(2);
    }
    expect(clients.map((c) => attribute(c, 'http.request.resend_count') ?? 0).sort()).toEqual([0, 1, 2]);
  });

  it('should make a span per resolved field under the operation span, with the error code of a failed one', () => {
    const operation = spans().find((s) => s.traceId === SICK_TRACE && s.name === 'query Sick');
    const field = spans().find((s) => s.traceId === SICK_TRACE && s.name === 'resolve Query.loanTypes');
    expect(field?.parentSpanId).toBe(operation?.spanId);
    expect(attribute(field, 'graphql.field.path')).toBe('loanTypes');
    expect(attribute(field, 'error.type')).toBe('unavailable');
    expect(field?.status?.code).toBe(2);
  });

  it("should give each failed attempt the blame and the kind of the upstream's failure", () => {
    const clients = getAllClientSpans(SICK_TRACE);
    expect(clients.map((s) => attribute(s, 'gateway.upstream.outcome'))).toEqual(
      clients.map(() => 'upstream_health'),
    );
    expect(clients.map((s) => attribute(s, 'gateway.upstream.error_kind'))).toEqual(
      clients.map(() => 'unavailable'),
    );
  });

  it('should log the failed request at warn: the upstream is sick, the caller did nothing wrong', async () => {
    const logLine = () =>
      output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; operation?: string; level?: number; outcome?: string })
        .find((l) => l.msg === 'graphql request' && l.operation === 'Sick');
    for (let i = 0; i < 1_200 && logLine() === undefined; i++) await sleep(50);
    expect(logLine()).toMatchObject({ level: 40, outcome: 'UPSTREAM_UNAVAILABLE' });
  });
});
