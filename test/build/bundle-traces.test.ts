/**
 * The traces of what the image runs: the bundle built as the Dockerfile builds it (`scripts/build.ts` into a
 * `dist/` beside `schema/` and `node_modules/`), started as its `CMD` starts it (`node dist/main.js`), in
 * production, exporting OTLP/HTTP (JSON) to a receiver started here, in front of the emulator through a
 * proxy that notes the `apiToken` of each upstream call. A login and a query, each with the caller's
 * `traceparent`, must arrive as one trace each under the caller's span: server span → operation span →
 * an HTTP CLIENT span per upstream call; the request's log line carries the server span's ids; readiness
 * probes make no span; no span holds a password, a token or an `apiToken`. And the SDK is not loaded at all
 * when no `OTEL_*` variable asks for traces (a module hook notes every `@opentelemetry` module resolved).
 * One build and two starts: a few tens of seconds on a loaded machine.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpProcess, stopProcess, type RunningProcess } from '../../support/child-process.ts';
import { freePort } from '../../support/free-port.ts';
import { buildImageLayout } from '../support/build-image-layout.ts';
import { imageEnv } from '../support/image-env.ts';
import { useEmulator } from '../support/emulator-fixture.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { otlpExportEnv } from '../support/otlp-export-env.ts';
import { attribute, SpanKindNumber, type OtlpSpan } from '../support/otlp-receiver.ts';
import { useOtlpReceiver } from '../support/use-otlp-receiver.ts';
import { startNotingProxy } from '../support/servers/forward-request.ts';
import type { Listening } from '../support/servers/listen-on-loopback.ts';

const CALLER_SPAN = '00f067aa0ba902b7';
const LOGIN_TRACE = '0af7651916cd43dd8448eb211c80319c';
const QUERY_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PASSWORD = 'demo-password';
/** Notes the URL of every `@opentelemetry` module the process resolves, one a line, in `$MODULES_LOG`. */
const MODULE_HOOK = `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (resolved.url.includes('/@opentelemetry/')) appendFileSync(process.env.MODULES_LOG, resolved.url + '\\n');
    return resolved;
  },
});
`;

const { emulator } = useEmulator();
let image: string;
const receiver = useOtlpReceiver();
let proxy: Listening;
const apiTokens = new Set<string>();
const started: RunningProcess[] = [];

/** Starts `node dist/main.js` in the image's layout with `env`; answers its base URL and process. */
async function startBundle(
  env: Record<string, string>,
  modulesLog: string,
): Promise<{ base: string; process: RunningProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const upstream = proxy.url;
  writeFileSync(modulesLog, '');
  const running = await startHttpProcess({
    name: 'bundle',
    args: ['--import', join(image, 'module-hook.mjs'), 'dist/main.js'],
    cwd: image,
    env: imageEnv(port, upstream, {
      LOG_LEVEL: 'info',
      LOG_REQUESTS: 'all',
      OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
      MODULES_LOG: modulesLog,
      ...env,
    }),
    readyUrl: `${base}/healthz`,
    timeoutMillis: 50_000,
  });
  started.push(running);
  return { base, process: running };
}

async function graphql(base: string, body: object, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return response.json();
}

beforeAll(async () => {
  ({ image } = await buildImageLayout('gateway-traces-'));
  writeFileSync(join(image, 'module-hook.mjs'), MODULE_HOOK);
  proxy = await startNotingProxy(emulator.url, (req) => {
    const found = new URL(req.url ?? '/', 'http://x').searchParams.get('apiToken');
    if (found !== null && found !== '') apiTokens.add(found);
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((running) => stopProcess(running, 0, 'SIGKILL')));
  await proxy.close();
  rmSync(image, { recursive: true, force: true });
});

describe('the bundle with traces off (no OTEL_* variable)', () => {
  it('should serve without loading the OpenTelemetry SDK', async () => {
    const log = join(image, 'modules-off.log');
    const { base, process: running } = await startBundle({}, log);
    expect(await graphql(base, { query: '{ __typename }' }, {})).toEqual({ data: { __typename: 'Query' } });
    await stopProcess(running, 30_000);
    // prom-client loads the API package (a no-op without an SDK) for its exemplars; nothing else may load.
    const loaded = readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url !== '');
    expect(loaded.filter((url) => !url.includes('/@opentelemetry/api/'))).toEqual([]);
  }, 60_000);
});

describe('the bundle with traces on', () => {
  let running: RunningProcess;
  let token: string;
  let modulesLog: string;
  const trace = (traceId: string): OtlpSpan[] => receiver.spans().filter((s) => s.traceId === traceId);

  beforeAll(async () => {
    modulesLog = join(image, 'modules-on.log');
    let base: string;
    ({ base, process: running } = await startBundle(otlpExportEnv(receiver), modulesLog));
    // Readiness probes first: they reach the upstream, and must make no span of their own.
    for (let i = 0; i < 3; i++) await fetch(`${base}/readyz`);
    const login = (await graphql(
      base,
      { query: `mutation Login { login(username: "demo", password: "${PASSWORD}") { token } }` },
      { traceparent: `00-${LOGIN_TRACE}-${CALLER_SPAN}-01` },
    )) as { data: { login: { token: string } } };
    token = login.data.login.token;
    await graphql(
      base,
      { query: 'query Orders { orders(first: 3) { nodes { id customer { id } } } }' },
      { authorization: `Bearer ${token}`, traceparent: `00-${QUERY_TRACE}-${CALLER_SPAN}-01` },
    );
    await receiver.waitFor(
      () =>
        trace(LOGIN_TRACE).some((s) => s.kind === SpanKindNumber.SERVER) &&
        trace(QUERY_TRACE).filter((s) => s.kind === SpanKindNumber.CLIENT).length >= 2,
    );
  }, 60_000);

  it('should have loaded the SDK, which it keeps in a chunk of its own', () => {
    expect(readFileSync(modulesLog, 'utf8')).toContain('/@opentelemetry/sdk-node/');
  });

  it.each([
    ['the login', LOGIN_TRACE, 'mutation Login', 'loginJson'],
    ['the query', QUERY_TRACE, 'query Orders', 'getAll'],
  ])(
    "should make %s one trace under the caller's span: server, operation, upstream HTTP calls",
    (_what, traceId, operationName, callName) => {
      const spans = trace(traceId);
      const server = spans.find((s) => s.kind === SpanKindNumber.SERVER);
      expect(server?.name).toBe('POST /graphql');
      expect(server?.parentSpanId).toBe(CALLER_SPAN);
      expect(spans.filter((s) => s.kind === SpanKindNumber.SERVER)).toHaveLength(1);
      const operation = spans.find((s) => s.name === operationName);
      expect(operation?.parentSpanId).toBe(server?.spanId);
      const clients = spans.filter((s) => s.kind === SpanKindNumber.CLIENT);
      expect(clients.map((s) => attribute(s, 'gateway.upstream.operation'))).toContain(callName);
      for (const client of clients) expect(client.parentSpanId).toBe(operation?.spanId);
      // Every span of the trace is one of these.
      expect(spans).toHaveLength(2 + clients.length);
    },
  );

  it('should batch the customers of the page into one call, still in the request’s trace', () => {
    const calls = trace(QUERY_TRACE).filter((s) => attribute(s, 'gateway.upstream.operation') === 'getAll');
    expect(calls).toHaveLength(2);
  });

  it("should write the server span's trace_id and span_id into the request's log line, once", async () => {
    const raw = () =>
      running
        .stdout()
        .split('\n')
        .find((l) => l.includes('"msg":"graphql request"') && l.includes('"operation":"Orders"'));
    for (let i = 0; i < 60 && raw() === undefined; i++) await sleep(50);
    const line = JSON.parse(raw() ?? '{}') as { trace_id?: string; span_id?: string };
    const server = trace(QUERY_TRACE).find((s) => s.kind === SpanKindNumber.SERVER);
    expect(line.trace_id).toBe(QUERY_TRACE);
    expect(line.span_id).toBe(server?.spanId);
    // The request's logger names the span in its bindings; the mixin adds no second copy.
    expect(raw()?.split('"trace_id"')).toHaveLength(2);
  });

  it('should make no span outside the two requests: none for the readiness probes', () => {
    const others = receiver.spans().filter((s) => s.traceId !== LOGIN_TRACE && s.traceId !== QUERY_TRACE);
    expect(others.map((s) => s.name)).toEqual([]);
  });

  it('should keep the password, the session token and the apiToken out of every span', () => {
    const all = JSON.stringify(receiver.spans());
    expect(apiTokens.size).toBeGreaterThan(0);
    for (const secret of [PASSWORD, token, ...apiTokens]) expect(all).not.toContain(secret);
  });
});
