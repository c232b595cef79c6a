/**
 * OpenTelemetry traces, loaded only when the standard `OTEL_*` variables ask for them (see
 * `tracingRequested`; `main.ts` imports this module dynamically, and the bundle keeps it in a chunk of its
 * own): the SDK for Node reads its exporter, endpoint, protocol, sampler, propagators and resource from
 * them, and exports in batches off the request path (its batch span processor for OTLP).
 *
 * No instrumentation patches a package: the gateway makes its spans by hand where it knows the moment
 * (`tracing.ts`), so it traces the same whatever loaded first, the sources or the bundle. The trace of a
 * GraphQL request: the HTTP server span (`request-span.ts`), the operation span (`trace-plugin.ts`), and one
 * HTTP CLIENT span per upstream attempt (`upstream-spans.ts`). URLs keep their parameter names only (`span-url.ts`), errors their code only, and no
 * variable value is recorded. Attributes are built only for spans the sampler records.
 *
 * Metrics and logs are not exported unless `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` name an exporter:
 * the gateway's metrics are Prometheus at `/metrics`; with one, the HTTP duration histograms of the
 * semantic conventions are recorded too (`http-durations.ts`).
 */
import type { BaseContext } from '@apollo/server';
import { metrics, trace } from '@opentelemetry/api';
import { getPropagator } from '@opentelemetry/auto-configuration-propagators';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { httpDurations } from './http-durations.ts';
import { createUpstreamPropagator } from './upstream-propagator.ts';
import { requestSpans } from './request-span.ts';
import { createTracePlugin } from './trace-plugin.ts';
import type { GatewayTracing } from './tracing.ts';
import { upstreamSpans } from './upstream-spans.ts';

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /** `UPSTREAM_PROPAGATE_TRACE`: the trace context sent upstream in `traceparent`. */
  propagateUpstream: boolean;
  /** `UPSTREAM_BAGGAGE_KEYS`: the caller's baggage entries sent upstream; none when empty. */
  upstreamBaggageKeys: readonly string[];
  /** `TRACE_RESOLVERS`: a span per resolved field. */
  traceResolvers: boolean;
  /** The GraphQL route, the server span's name and `http.route`. */
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

/** Starts the SDK; answers what the gateway calls. */
export function startTracing(options: StartTracingOptions): GatewayTracing {
  const env = options.env ?? process.env;
  // `OTEL_PROPAGATORS` as the SDK reads it (unset: W3C trace context and baggage; `none`: an empty composite,
  // which extracts and injects nothing), wrapped so that only what the settings allow goes upstream.
  const propagator = createUpstreamPropagator(getPropagator(), {
    propagateTrace: options.propagateUpstream,
    baggageKeys: options.upstreamBaggageKeys,
  });
  const pushesMetrics = exporterNamed(env, 'OTEL_METRICS_EXPORTER');
  const sdk = new NodeSDK({
    // The variable wins; without it, spans still say which service sent them.
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: TRACER_NAME }),
    textMapPropagator: propagator,
    instrumentations: [],
    // Empty lists stop the SDK from building its OTLP defaults; the variables still choose when set.
    ...(pushesMetrics ? {} : { metricReaders: [] }),
    ...(exporterNamed(env, 'OTEL_LOGS_EXPORTER') ? {} : { logRecordProcessors: [] }),
  });
  sdk.start();
  const tracer = trace.getTracer(TRACER_NAME);
  const durations = pushesMetrics ? httpDurations(metrics.getMeter(TRACER_NAME)) : undefined;

  return {
    startRequest: requestSpans(tracer, propagator, options.graphqlPath, durations?.server),
    ...upstreamSpans(tracer, {
      propagator,
      sendsContext: options.propagateUpstream || options.upstreamBaggageKeys.length > 0,
      duration: durations?.client,
    }),
    apolloPlugin: <TContext extends BaseContext>(traceOf: GatewayTracingTraceOf) =>
      createTracePlugin<TContext>({ tracer, traceOf, traceResolvers: options.traceResolvers }),
    shutdown: () => sdk.shutdown(),
  };
}

type GatewayTracingTraceOf = Parameters<GatewayTracing['apolloPlugin']>[0];
