/**
 * OpenTelemetry traces, loaded only when the standard `OTEL_*` variables ask for them (see
 * `tracingRequested`): the SDK for Node reads its exporter, endpoint, protocol, sampler, propagators and
 * resource from them. Start it before the gateway's modules load: the graphql instrumentation patches
 * graphql-js as it is first required.
 *
 * Spans, by the semantic conventions: the HTTP server span of each `/graphql` request (W3C trace context
 * accepted from the caller) with the operation's name and type, and a refusal before execution recorded on
 * it (`trace-plugin.ts`); graphql-js's parse, validate and execute (resolver spans only for non-trivial
 * resolvers, two levels deep; none outside a request); one INTERNAL `upstream <operation>` span per upstream
 * call (its retries included) and under it one CLIENT span per HTTP attempt (undici's: `http.request.method`,
 * `server.address`, `server.port`, `url.full`, `http.response.status_code`, `error.type`…), whether or not
 * the context is sent upstream (`upstream-propagator.ts`). URLs keep their parameter names only
 * (`span-url.ts`), exceptions their type only (`scrubbed-tracer.ts`), and no variable value is recorded.
 *
 * Metrics and logs are not exported unless `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` name an exporter:
 * the gateway's metrics are Prometheus at `/metrics`, and without this the SDK would also push the
 * instrumentations' metrics to the collector's `/v1/metrics`, unasked.
 */
import type { BaseContext } from '@apollo/server';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { getPropagator } from '@opentelemetry/auto-configuration-propagators';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { scrubbedTracerProvider } from './scrubbed-tracer.ts';
import { createUpstreamPropagator } from './upstream-propagator.ts';
import { spanQuery, spanUrl } from './span-url.ts';
import { createTracePlugin, recordRefusal } from './trace-plugin.ts';
import type { GatewayTracing } from './tracing.ts';
import { upstreamSpans } from './upstream-spans.ts';

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /** `UPSTREAM_PROPAGATE_TRACE`: the trace context sent upstream in `traceparent`. */
  propagateUpstream: boolean;
  /** `UPSTREAM_BAGGAGE_KEYS`: the caller's baggage entries sent upstream; none when empty. */
  upstreamBaggageKeys: readonly string[];
  /** The GraphQL route; other paths (probes, metrics) get no spans. */
  graphqlPath: string;
  /** The environment (`OTEL_METRICS_EXPORTER`, `OTEL_LOGS_EXPORTER`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

const TRACER_NAME = 'jsonp-graphql-gateway';

/** Whether the standard variable `name` names an exporter (anything but unset, empty or `none`). */
function exporterNamed(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'none';
}

/** Starts the SDK with the gateway's instrumentations; answers what the gateway calls. */
export function startTracing(options: StartTracingOptions): GatewayTracing {
  const env = options.env ?? process.env;
  // `OTEL_PROPAGATORS` as the SDK reads it (unset: W3C trace context and baggage; `none`: an empty composite,
  // which extracts and injects nothing), wrapped so that only what the settings allow goes upstream.
  const inner = getPropagator();
  const upstream = upstreamSpans(TRACER_NAME);
  const graphql = new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true, depth: 2 });
  const undici = new UndiciInstrumentation({
    // The raw URL never enters the span: these replace the instrumentation's own `url.*` before it starts.
    startSpanHook: (request) => {
      const url = spanUrl(`${request.origin}${request.path}`);
      const queryAt = url.indexOf('?');
      return { 'url.full': url, 'url.query': queryAt < 0 ? '' : url.slice(queryAt + 1) };
    },
    requestHook: (span) => {
      const resends = upstream.currentRetries();
      if (resends > 0) span.setAttribute('http.request.resend_count', resends);
    },
  });
  const sdk = new NodeSDK({
    // The variable wins; without it, spans still say which service sent them.
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: 'jsonp-graphql-gateway' }),
    textMapPropagator: createUpstreamPropagator(inner, {
      propagateTrace: options.propagateUpstream,
      baggageKeys: options.upstreamBaggageKeys,
    }),
    // Empty lists stop the SDK from building its OTLP defaults; the variables still choose when set.
    ...(exporterNamed(env, 'OTEL_METRICS_EXPORTER') ? {} : { metricReaders: [] }),
    ...(exporterNamed(env, 'OTEL_LOGS_EXPORTER') ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => !(request.url ?? '').startsWith(options.graphqlPath),
        // The gateway's own calls go through undici; node:http out is only the exporter's.
        ignoreOutgoingRequestHook: () => true,
        // A GET's document and variables are in its query: names only (replaces the SDK's own `url.query`).
        startIncomingSpanHook: (request) => {
          const url = request.url ?? '';
          const queryAt = url.indexOf('?');
          return queryAt < 0 ? {} : { 'url.query': spanQuery(url.slice(queryAt + 1)) };
        },
      }),
      undici,
      graphql,
    ],
  });
  sdk.start();
  // After `start`, which hands every instrumentation the global provider: these two get it scrubbed.
  const provider = trace.getTracerProvider();
  graphql.setTracerProvider(scrubbedTracerProvider(provider, { requireParent: true }));
  undici.setTracerProvider(scrubbedTracerProvider(provider, { requireParent: false }));

  return {
    currentTraceContext() {
      const context = trace.getActiveSpan()?.spanContext();
      return context !== undefined && isSpanContextValid(context) ? context : undefined;
    },
    upstreamCall: upstream.upstreamCall,
    countRetry: upstream.countRetry,
    recordRefusal(code) {
      const span = trace.getActiveSpan();
      if (span !== undefined) recordRefusal(span, code);
    },
    apolloPlugin: <TContext extends BaseContext>() => createTracePlugin<TContext>(options.graphqlPath),
    shutdown: () => sdk.shutdown(),
  };
}
