/**
 * What the gateway puts on spans and sends upstream, without the SDK's exporters: URLs keep their parameter
 * names only (`span-url.ts`), refusals and errors their code only, spans hang under the request that made
 * them (none outside one), and the outgoing propagator
 * writes `traceparent` only when asked and of the caller's baggage only the allowed keys
 * (`upstream-propagator.ts`).
 */
import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import { core, tracing } from '@opentelemetry/sdk-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { requestSpans } from '../../src/observability/tracing/request-span.ts';
import { spanQuery, spanUrl } from '../../src/observability/tracing/span-url.ts';
import { createUpstreamPropagator } from '../../src/observability/tracing/upstream-propagator.ts';
import { upstreamSpans } from '../../src/observability/tracing/upstream-spans.ts';

describe('spanUrl', () => {
  it('should keep the origin, the path and the parameter names, and redact every value and the userinfo', () => {
    expect(spanUrl('http://u:p@up.test:8080/studio/jsonp/getAll?username=ann&apiToken=t0k&x#frag')).toBe(
      'http://REDACTED:REDACTED@up.test:8080/studio/jsonp/getAll?username=REDACTED&apiToken=REDACTED&x',
    );
    expect(spanUrl('/graphql')).toBe('/graphql');
    expect(spanQuery('')).toBe('');
  });

  it('should never keep a value of any query string', () => {
    const value = fc.string({ minLength: 6 }).filter((v) => !/[&#=]/.test(v) && !'REDACTED'.includes(v));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.stringMatching(/^[a-zA-Z]{1,8}$/), value), { minLength: 1 }),
        (pairs) => {
          const url = `http://up.test/p?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
          const redacted = spanUrl(url);
          // Every value is gone; a value may still spell a parameter's name, which is kept.
          const kept = new URL(redacted).searchParams;
          for (const [k] of pairs) expect(kept.getAll(k).every((v) => v === 'REDACTED')).toBe(true);
          for (const [, v] of pairs) {
            if (!pairs.some(([name]) => name.includes(v))) expect(redacted).not.toContain(v);
          }
          expect(redacted).not.toContain(pairs.map(([k, v]) => `${k}=${v}`).join('&'));
        },
      ),
    );
  });
});

describe('createUpstreamPropagator', () => {
  const inner = new core.CompositePropagator({
    propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
  });
  // What a caller sent, as the server extracted it.
  const incoming = inner.extract(
    ROOT_CONTEXT,
    {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      baggage: 'tenant=acme,user.email=ann%40example.com,blob=' + 'x'.repeat(3000),
    },
    defaultTextMapGetter,
  );
  const call = trace.setSpanContext(incoming, {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '1111111111111111',
    traceFlags: TraceFlags.SAMPLED,
  });

  function injected(propagateTrace: boolean, baggageKeys: string[]): Record<string, string> {
    const carrier: Record<string, string> = {};
    createUpstreamPropagator(inner, { propagateTrace, baggageKeys }).inject(
      call,
      carrier,
      defaultTextMapSetter,
    );
    return carrier;
  }

  it('should send neither trace context nor baggage by default', () => {
    expect(injected(false, [])).toEqual({});
  });

  it('should send the trace context when asked, and the allowed baggage keys only', () => {
    expect(injected(true, [])).toEqual({
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-1111111111111111-01',
    });
    expect(injected(false, ['tenant', 'absent'])).toEqual({ baggage: 'tenant=acme' });
  });

  it('should still extract what the caller sent', () => {
    expect(propagation.getBaggage(incoming)?.getEntry('tenant')?.value).toBe('acme');
    expect(trace.getSpanContext(incoming)?.spanId).toBe('00f067aa0ba902b7');
  });
});

describe('spans made by hand', () => {
  const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const request = {
    method: 'GET',
    url: '/graphql?query=%7Bsecret-literal%7D&variables=%7B%22v%22%3A%22hunter2%22%7D',
    headers: { traceparent: CALLER, 'user-agent': 'test' },
    ip: '127.0.0.1',
    protocol: 'http',
    hostname: 'gateway.test',
    port: 4000,
  };
  const propagator = createUpstreamPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
    { propagateTrace: true, baggageKeys: [] },
  );

  /** A tracer whose ended spans are kept; `sampled: false` samples nothing. */
  function recorder(sampled = true): { tracer: Tracer; ended: () => tracing.ReadableSpan[] } {
    const exporter = new tracing.InMemorySpanExporter();
    const provider = new tracing.BasicTracerProvider({
      sampler: sampled ? new tracing.AlwaysOnSampler() : new tracing.AlwaysOffSampler(),
      spanProcessors: [new tracing.SimpleSpanProcessor(exporter)],
    });
    return { tracer: provider.getTracer('t'), ended: () => exporter.getFinishedSpans() };
  }

  it("should start the server span under the caller's context, the query's names only", () => {
    const { tracer, ended } = recorder();
    const trace = requestSpans(tracer, propagator, '/graphql')(request);
    trace.end(200);
    const [server] = ended();
    expect(server?.name).toBe('GET /graphql');
    expect(server?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(server?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(trace.ids.spanId).toBe(server?.spanContext().spanId);
    expect(server?.attributes['url.query']).toBe('query=REDACTED&variables=REDACTED');
    expect(server?.attributes['http.response.status_code']).toBe(200);
    expect(JSON.stringify(server?.attributes)).not.toMatch(/secret-literal|hunter2/);
  });

  it('should record a refusal by its code only, once', () => {
    const { tracer, ended } = recorder();
    const trace = requestSpans(tracer, propagator, '/graphql')(request);
    trace.refuse('BODY_TOO_LARGE');
    trace.refuse('OTHER');
    trace.end(413);
    const [server] = ended();
    expect(server?.attributes['error.type']).toBe('BODY_TOO_LARGE');
    expect(server?.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(server?.events.map((event) => event.attributes)).toEqual([{ 'exception.type': 'BODY_TOO_LARGE' }]);
  });

  it('should build no attribute for a span the sampler drops', () => {
    const { tracer, ended } = recorder(false);
    const trace = requestSpans(tracer, propagator, '/graphql')({ ...request, headers: {} });
    trace.end(200);
    expect(ended()).toEqual([]);
  });

  it('should make upstream spans only under a request, one CLIENT span per attempt, URL values redacted', async () => {
    const { tracer, ended } = recorder();
    const spans = upstreamSpans(tracer, { propagator, sendsContext: true });
    const attemptCall = {
      method: 'GET',
      origin: 'http://up.test:8080',
      path: '/studio/jsonp/getAll?username=ann&apiToken=t0k3n',
    };
    // Outside a request (a readiness check): no span, no header.
    await spans.upstreamCall(undefined, 'getAll', 1, () =>
      Promise.resolve(spans.upstreamAttempt(attemptCall)),
    );
    expect(spans.upstreamAttempt(attemptCall)).toBeUndefined();
    expect(ended()).toEqual([]);

    const trace = requestSpans(tracer, propagator, '/graphql')(request);
    const headers = await spans.upstreamCall(trace, 'getAll', 5, () => {
      const first = spans.upstreamAttempt(attemptCall);
      first?.end(
        undefined,
        new UpstreamError('unavailable', 'HTTP 500', { operation: 'getAll', httpStatus: 500 }),
      );
      spans.countRetry();
      const second = spans.upstreamAttempt(attemptCall);
      second?.end(200, undefined);
      return Promise.resolve(second?.headers);
    });
    trace.end(200);
    const attempts = ended().filter((span) => span.name === 'GET');
    expect(ended().filter((span) => span.name.startsWith('upstream '))).toEqual([]);
    expect(attempts.map((span) => span.parentSpanContext?.spanId)).toEqual([
      trace.ids.spanId,
      trace.ids.spanId,
    ]);
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual([500, 200]);
    expect(attempts.map((span) => span.attributes['error.type'])).toEqual(['500', undefined]);
    expect(attempts.map((span) => span.attributes['gateway.upstream.outcome'])).toEqual([
      'upstream_health',
      'ok',
    ]);
    expect(attempts.map((span) => span.attributes['http.request.resend_count'])).toEqual([undefined, 1]);
    expect(attempts[0]?.attributes).toMatchObject({
      'server.address': 'up.test',
      'server.port': 8080,
      'url.full': 'http://up.test:8080/studio/jsonp/getAll?username=REDACTED&apiToken=REDACTED',
      'gateway.upstream.operation': 'getAll',
      'gateway.upstream.batch_size': 5,
    });
    expect(headers).toEqual({
      traceparent: `00-${trace.ids.traceId}-${attempts[1]?.spanContext().spanId ?? ''}-01`,
    });
    expect(JSON.stringify(ended().map((span) => span.attributes))).not.toMatch(/ann|t0k3n|HTTP 500/);
  });

  it('should give a call refused before any attempt a span of its own, with its blame', async () => {
    const { tracer, ended } = recorder();
    const spans = upstreamSpans(tracer, { propagator, sendsContext: false });
    const trace = requestSpans(tracer, propagator, '/graphql')(request);
    const refusal = new UpstreamError('circuit_open', 'the circuit breaker is open', { operation: 'getAll' });
    await expect(spans.upstreamCall(trace, 'getAll', 3, () => Promise.reject(refusal))).rejects.toBe(refusal);
    const [call] = ended();
    expect(call?.name).toBe('upstream getAll');
    expect(call?.parentSpanContext?.spanId).toBe(trace.ids.spanId);
    expect(call?.attributes).toMatchObject({
      'gateway.upstream.batch_size': 3,
      'gateway.upstream.error_kind': 'circuit_open',
      'error.type': 'circuit_open',
    });
    expect(call?.attributes['gateway.upstream.outcome']).toBe(refusal.blame);
  });
});

describe('UPSTREAM_BAGGAGE_KEYS', () => {
  it('should default to none, take a comma-separated list, and refuse a malformed key', () => {
    expect(loadConfig({}).upstreamBaggageKeys).toEqual([]);
    expect(loadConfig({ UPSTREAM_BAGGAGE_KEYS: 'tenant, synthetic' }).upstreamBaggageKeys).toEqual([
      'tenant',
      'synthetic',
    ]);
    expect(() => loadConfig({ UPSTREAM_BAGGAGE_KEYS: 'tenant,bad key' })).toThrow(/UPSTREAM_BAGGAGE_KEYS/);
  });
});
