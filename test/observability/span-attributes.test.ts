/**
 * What the gateway puts on spans and sends upstream, without the SDK's exporters: URLs keep their parameter
 * names only (`span-url.ts`), exceptions their type only (`scrubbed-tracer.ts`), and the outgoing propagator
 * writes `traceparent` only when asked and of the caller's baggage only the allowed keys
 * (`upstream-propagator.ts`).
 */
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { core } from '@opentelemetry/sdk-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { scrubbedTracerProvider } from '../../src/observability/tracing/scrubbed-tracer.ts';
import { spanQuery, spanUrl } from '../../src/observability/tracing/span-url.ts';
import { createUpstreamPropagator } from '../../src/observability/tracing/upstream-propagator.ts';

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

describe('scrubbedTracerProvider', () => {
  /** A provider recording what its spans were told. */
  function recording(): { provider: TracerProvider; calls: unknown[][] } {
    const calls: unknown[][] = [];
    const span = {
      recordException: (...args: unknown[]) => calls.push(['recordException', ...args]),
      setStatus: (...args: unknown[]) => calls.push(['setStatus', ...args]),
      spanContext: () =>
        trace
          .wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 })
          .spanContext(),
    } as unknown as Span;
    const tracer = { startSpan: () => span, startActiveSpan: () => undefined } as unknown as Tracer;
    return { provider: { getTracer: () => tracer }, calls };
  }

  it("should record an exception's type and a status's code, never their messages", () => {
    const { provider, calls } = recording();
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: 'a'.repeat(32),
      spanId: 'c'.repeat(16),
      traceFlags: 1,
    });
    const span = scrubbedTracerProvider(provider, { requireParent: true })
      .getTracer('t')
      .startSpan('s', {}, parent);
    span.recordException(new TypeError('Int cannot represent non-integer value: "secret-literal"'));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: 'Syntax Error: Unexpected String "secret-literal"',
    });
    expect(calls).toEqual([
      ['recordException', { name: 'TypeError' }, undefined],
      ['setStatus', { code: SpanStatusCode.ERROR }],
    ]);
  });

  it('should not record a span without a parent when a parent is required', () => {
    const { provider, calls } = recording();
    const tracer = scrubbedTracerProvider(provider, { requireParent: true }).getTracer('t');
    const span = context.with(ROOT_CONTEXT, () => tracer.startSpan('graphql.parse'));
    expect(span.isRecording()).toBe(false);
    span.recordException(new Error('x'));
    expect(calls).toEqual([]);
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
