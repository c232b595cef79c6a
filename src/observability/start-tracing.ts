/**
 * OpenTelemetry traces, loaded only when the standard `OTEL_*` variables ask for them (see
 * `tracingRequested`): the SDK for Node reads its exporter, endpoint, protocol, sampler, propagators and
 * resource from them. Start it before the gateway's modules load: the graphql instrumentation patches
 * graphql-js as it is first required.
 *
 * Spans: the HTTP server span of each `/graphql` request (W3C trace context accepted from the caller) with
 * the operation's name and type, graphql-js's parse, validate and execute (resolver spans only for
 * non-trivial resolvers, two levels deep), one `upstream <operation>` span per upstream call, and, with
 * `UPSTREAM_PROPAGATE_TRACE=true`, undici's client span under it whose context is sent upstream.
 * URLs are redacted as in the logs (the upstream's `apiToken`, a GET's document), and no variable values.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { SpanKind, SpanStatusCode, isSpanContextValid, trace, type Span } from '@opentelemetry/api';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { isUpstreamError } from '../upstream/errors.ts';
import { redactUrl } from './redact.ts';
import type { GatewayTracing } from './tracing.ts';

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /** `UPSTREAM_PROPAGATE_TRACE`: undici's client spans, and their context sent upstream. */
  propagateUpstream: boolean;
  /** The GraphQL route; other paths (probes, metrics) get no spans. */
  graphqlPath: string;
}

/** The span attributes of an upstream call. */
export const UpstreamSpanAttribute = {
  OPERATION: 'gateway.upstream.operation',
  BATCH_SIZE: 'gateway.upstream.batch_size',
  RETRIES: 'gateway.upstream.retries',
  OUTCOME: 'gateway.upstream.outcome',
  ERROR_KIND: 'gateway.upstream.error_kind',
} as const;

/** Starts the SDK with the gateway's instrumentations; answers what the gateway calls. */
export function startTracing(options: StartTracingOptions): GatewayTracing {
  const sdk = new NodeSDK({
    // The variable wins; without it, spans still say which service sent them.
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: 'jsonp-graphql-gateway' }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => !(request.url ?? '').startsWith(options.graphqlPath),
        // The gateway's own calls go through undici; node:http out is only the exporter's.
        ignoreOutgoingRequestHook: () => true,
        requestHook: (span, request) => {
          const url = 'url' in request ? request.url : undefined;
          if (url?.includes('?')) span.setAttribute('url.query', redactUrl(url).split('?')[1] ?? '');
        },
      }),
      new UndiciInstrumentation({
        // Ignored, a request gets no span and no `traceparent`: the upstream sees nothing of the trace.
        ignoreRequestHook: () => !options.propagateUpstream,
        requestHook: (span, request) => {
          const url = redactUrl(`${request.origin}${request.path}`);
          span.setAttribute('url.full', url);
          span.setAttribute('url.query', url.split('?')[1] ?? '');
        },
      }),
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true, depth: 2 }),
    ],
  });
  sdk.start();
  const tracer = trace.getTracer('jsonp-graphql-gateway');
  const retries = new WeakMap<Span, number>();

  return {
    currentTraceId() {
      const context = trace.getActiveSpan()?.spanContext();
      return context !== undefined && isSpanContextValid(context) ? context.traceId : undefined;
    },
    upstreamCall(operation, batchSize, call) {
      const attributes = {
        [UpstreamSpanAttribute.OPERATION]: operation,
        [UpstreamSpanAttribute.BATCH_SIZE]: batchSize,
        [UpstreamSpanAttribute.RETRIES]: 0,
      };
      return tracer.startActiveSpan(
        `upstream ${operation}`,
        { kind: SpanKind.INTERNAL, attributes },
        async (span) => {
          try {
            const result = await call();
            span.setAttribute(UpstreamSpanAttribute.OUTCOME, 'ok');
            return result;
          } catch (error) {
            // The blame and kind only: an upstream message may quote the caller's input.
            span.setAttribute(
              UpstreamSpanAttribute.OUTCOME,
              isUpstreamError(error) ? error.blame : 'gateway',
            );
            if (isUpstreamError(error)) span.setAttribute(UpstreamSpanAttribute.ERROR_KIND, error.kind);
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
    countRetry() {
      const span = trace.getActiveSpan();
      if (span === undefined) return;
      const count = (retries.get(span) ?? 0) + 1;
      retries.set(span, count);
      span.setAttribute(UpstreamSpanAttribute.RETRIES, count);
    },
    apolloPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
      return {
        requestDidStart({ request }) {
          const span = trace.getActiveSpan();
          if (span === undefined) return Promise.resolve();
          span.setAttribute('http.route', options.graphqlPath);
          span.updateName(`${request.http?.method ?? 'POST'} ${options.graphqlPath}`);
          return Promise.resolve({
            didResolveOperation({ operationName, operation }) {
              if (operationName) span.setAttribute('graphql.operation.name', operationName);
              if (operation) span.setAttribute('graphql.operation.type', operation.operation);
              return Promise.resolve();
            },
          });
        },
      };
    },
    shutdown: () => sdk.shutdown(),
  };
}
