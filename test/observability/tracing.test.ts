/**
 * OpenTelemetry end to end: the real command (`node src/main.ts`) with the standard OTEL_* variables,
 * exporting OTLP/HTTP (JSON) to a receiver started here, in front of the emulator through a recording
 * proxy. One GraphQL request with the caller's W3C trace context must arrive as one trace: the server span
 * (the caller's span its parent, the operation named), graphql-js's execute span (`query Orders`), an `upstream getAll` span
 * per upstream call with its batch size, retries and outcome class, undici's span under it whose context
 * reached the upstream; the log line carries the trace id; no secret is in any span.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { stopProcess } from '../support/child-process.ts';
import { startGatewayCommand, type GatewayCommand } from '../support/gateway-command.ts';
import { forwardRequest } from '../support/servers/forward-request.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

/** A span as OTLP/JSON carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

let emulator: RunningEmulator;
let proxy: Server;
let receiver: Server;
let baseUrl: string;
let proxyUrl: string;
let receiverUrl: string;
const commands: GatewayCommand[] = [];
const bodies: string[] = [];
const upstreamTraceparents: string[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

function spans(): OtlpSpan[] {
  return bodies.flatMap((body) => {
    const parsed = JSON.parse(body) as {
      resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
    };
    return (parsed.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []));
  });
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  if (value === undefined) return undefined;
  const first = Object.values(value)[0];
  // OTLP/JSON sends 64-bit integers as strings.
  return 'intValue' in value ? Number(first) : first;
}

/** Starts the real command against the proxy, exporting to the receiver; its output is in `output()`. */
async function startCommand(
  upstreamUrl: string,
  otlpUrl: string,
  env: Record<string, string>,
): Promise<GatewayCommand> {
  const command = await startGatewayCommand({
    upstreamUrl,
    env: {
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'gateway-under-test',
      ...env,
    },
  });
  commands.push(command);
  return command;
}

/** Everything the started commands wrote. */
const output = (): string =>
  commands.map((command) => `${command.process.stdout()}\n${command.process.stderr()}`).join('\n');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const upstream = new URL(emulator.url);
  // Forwards to the emulator, noting the trace context each upstream call carries.
  proxy = createServer((req, res) => {
    const header = req.headers.traceparent;
    if (typeof header === 'string') upstreamTraceparents.push(header);
    forwardRequest(upstream, req, res);
  });
  proxyUrl = await listen(proxy);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  receiverUrl = await listen(receiver);
  ({ baseUrl } = await startCommand(proxyUrl, receiverUrl, { UPSTREAM_PROPAGATE_TRACE: 'true' }));
}, 60_000);

afterAll(async () => {
  await Promise.all(commands.map((command) => stopProcess(command.process, 0, 'SIGKILL')));
  await new Promise((done) => proxy.close(done));
  await new Promise((done) => receiver.close(done));
  await emulator.close();
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

describe('tracing switched on by OTEL_* variables', () => {
  let token: string;
  const ORDERS = 'query Orders { orders(first: 5) { nodes { id customer { id } } } }';

  beforeAll(async () => {
    const login = (await graphql(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    )) as { data: { login: { token: string } } };
    token = login.data.login.token;
    await graphql(ORDERS, {
      authorization: `Bearer ${token}`,
      traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`,
    });
    // The batch processor sends every 100 ms: wait for the request's upstream spans.
    for (let i = 0; i < 100; i++) {
      if (spans().filter((s) => s.traceId === TRACE_ID && s.name === 'upstream getAll').length >= 2) break;
      await sleep(50);
    }
  }, 30_000);

  it("should make the request one trace under the caller's span, named after its operation", () => {
    const server = spans().find((s) => s.traceId === TRACE_ID && s.parentSpanId === CALLER_SPAN_ID);
    expect(server?.name).toBe('POST /graphql');
    expect(server && attribute(server, 'graphql.operation.name')).toBe('Orders');
    expect(server && attribute(server, 'graphql.operation.type')).toBe('query');
    const execute = spans().find((s) => s.traceId === TRACE_ID && s.name === 'query Orders');
    expect(execute && attribute(execute, 'graphql.operation.name')).toBe('Orders');
  });

  it('should have a child span per upstream call with operation, batch size, retries and outcome', () => {
    const trace = spans().filter((s) => s.traceId === TRACE_ID);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const server = trace.find((s) => s.parentSpanId === CALLER_SPAN_ID);
    const upstream = trace.filter((s) => s.name === 'upstream getAll');
    // The page of orders, then one batch for their customers.
    expect(upstream).toHaveLength(2);
    for (const span of upstream) {
      let ancestor = span.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId);
      while (ancestor !== undefined && ancestor !== server) {
        ancestor = ancestor.parentSpanId === undefined ? undefined : byId.get(ancestor.parentSpanId);
      }
      expect(ancestor).toBe(server);
      expect(attribute(span, 'gateway.upstream.operation')).toBe('getAll');
      expect(attribute(span, 'gateway.upstream.retries')).toBe(0);
      expect(attribute(span, 'gateway.upstream.outcome')).toBe('ok');
    }
    expect(upstream.map((s) => attribute(s, 'gateway.upstream.batch_size')).sort()).toEqual([5, 5]);
  });

  it("should send the trace upstream from undici's span under each upstream span", () => {
    const trace = spans().filter((s) => s.traceId === TRACE_ID);
    const upstreamIds = new Set(trace.filter((s) => s.name === 'upstream getAll').map((s) => s.spanId));
    const clients = trace.filter((s) => s.parentSpanId !== undefined && upstreamIds.has(s.parentSpanId));
    expect(clients).toHaveLength(2);
    for (const client of clients) {
      expect(upstreamTraceparents).toContain(`00-${TRACE_ID}-${client.spanId}-01`);
    }
  });

  it('should put the request id and the trace id in the log line', async () => {
    const logLine = () =>
      output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; operation?: string; traceId?: string; reqId?: string })
        .find((l) => l.msg === 'graphql request' && l.operation === 'Orders');
    // The logger flushes its buffer at least every second.
    for (let i = 0; i < 60 && logLine() === undefined; i++) await sleep(50);
    const line = logLine();
    expect(line?.traceId).toBe(TRACE_ID);
    expect(line?.reqId).toMatch(/\S/);
  });

  it('should keep passwords and tokens out of every span', () => {
    const all = bodies.join('\n');
    expect(all).not.toContain('demo-password');
    expect(all).not.toContain(token);
    expect(all).not.toMatch(/apiToken=(?!%5BRedacted%5D|\[Redacted\])/);
  });
});

describe('tracing with UPSTREAM_PROPAGATE_TRACE off (the default), on a sick upstream', () => {
  const SICK_TRACE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

  beforeAll(async () => {
    // Retries are allowed as a share of recent successes: all of them here, after a few successes below.
    const quiet = await startCommand(proxyUrl, receiverUrl, { UPSTREAM_RETRY_BUDGET_PERCENT: '100' });
    const login = (await graphql(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
      {},
      quiet.baseUrl,
    )) as { data: { login: { token: string } } };
    const auth = { authorization: `Bearer ${login.data.login.token}` };
    for (let i = 0; i < 3; i++) await graphql('{ loanTypes(first: 1) { totalCount } }', auth, quiet.baseUrl);
    upstreamTraceparents.length = 0;
    emulator.setFaults({ every: 1, mode: 'error500', operations: ['getAll'] });
    try {
      await graphql(
        'query Sick { loanTypes(first: 1) { totalCount } }',
        {
          authorization: `Bearer ${login.data.login.token}`,
          traceparent: `00-${SICK_TRACE}-${CALLER_SPAN_ID}-01`,
        },
        quiet.baseUrl,
      );
    } finally {
      emulator.setFaults({});
    }
    for (
      let i = 0;
      i < 100 && !spans().some((s) => s.traceId === SICK_TRACE && s.name === 'upstream getAll');
      i++
    ) {
      await sleep(50);
    }
  }, 30_000);

  it('should send nothing of the trace upstream, and make no undici span', () => {
    expect(upstreamTraceparents).toEqual([]);
    const trace = spans().filter((s) => s.traceId === SICK_TRACE);
    const upstreamIds = new Set(trace.filter((s) => s.name === 'upstream getAll').map((s) => s.spanId));
    expect(trace.filter((s) => s.parentSpanId !== undefined && upstreamIds.has(s.parentSpanId))).toEqual([]);
  });

  it("should give the upstream span the retries and the blame of the upstream's failure", () => {
    const span = spans().find((s) => s.traceId === SICK_TRACE && s.name === 'upstream getAll');
    expect(span && attribute(span, 'gateway.upstream.outcome')).toBe('upstream_health');
    expect(span && attribute(span, 'gateway.upstream.error_kind')).toBe('unavailable');
    expect(span && attribute(span, 'gateway.upstream.retries')).toBe(2);
  });
});
