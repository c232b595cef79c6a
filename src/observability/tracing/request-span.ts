/**
 * The HTTP server span of a GraphQL request, started by hand in the request's first Fastify hook (no
 * instrumentation patches node:http): the caller's W3C trace context and baggage extracted from the headers
 * with the configured propagator, the semantic conventions' attributes (built only when the span is
 * recorded), the status at the end, a refusal before GraphQL recorded by its code.
 * See https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-server.
 */
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { RecordDuration } from './http-durations.ts';
import { markSpanFailed } from './span-failure.ts';
import { spanQuery } from './span-url.ts';
import type { RequestTenant } from '../request-tenant.ts';
import type { RequestTrace, TraceContext, TracedRequest } from './tracing.ts';

/**
 * Records on `span` a refusal answered with `code`: `error.type`, an `exception` event of that type and
 * status error; the code only, never a message (an error's message may quote the caller's literals).
 */
export function recordRefusal(span: Span, code: string): void {
  span.addEvent('exception', { 'exception.type': code });
  markSpanFailed(span, code);
}

/** How a request's duration is recorded (`OTEL_METRICS_EXPORTER` set), with its method and route. */
interface DurationOf {
  record: RecordDuration;
  method: string;
  route: string;
}

/** A request's trace as the tracing modules hold it; the rest of the gateway sees a {@link RequestTrace}. */
export class SpanRequestTrace implements RequestTrace {
  readonly ids: TraceContext;
  readonly server: Span;
  /**
   * The context children start in: the caller's (its baggage) with the server span, then, once execution
   * starts, with the operation span (`trace-plugin.ts`).
   */
  parent: Context;
  #refused: string | undefined;
  readonly #duration: DurationOf | undefined;
  readonly #startedAt: number;

  constructor(server: Span, parent: Context, duration?: DurationOf) {
    this.server = server;
    this.ids = server.spanContext();
    this.parent = parent;
    this.#duration = duration;
    this.#startedAt = duration === undefined ? 0 : performance.now();
  }

  refuse(code: string): void {
    if (this.#refused !== undefined) return;
    this.#refused = code;
    if (this.server.isRecording()) recordRefusal(this.server, code);
  }

  tenant(tenant: RequestTenant): void {
    if (!this.server.isRecording()) return;
    this.server.setAttribute('gateway.application', tenant.application);
    if (tenant.organization !== null) this.server.setAttribute('gateway.organization', tenant.organization);
  }

  end(statusCode: number): void {
    const span = this.server;
    if (span.isRecording()) {
      span.setAttribute('http.response.status_code', statusCode);
      // A server span is an error for a 5xx only: a 4xx is the caller's (unless refused above, by its code).
      if (statusCode >= 500 && this.#refused === undefined) {
        markSpanFailed(span, String(statusCode));
      }
    }
    span.end();
    const duration = this.#duration;
    if (duration !== undefined) {
      const errorType = this.#refused ?? (statusCode >= 500 ? String(statusCode) : undefined);
      duration.record((performance.now() - this.#startedAt) / 1000, {
        'http.request.method': duration.method,
        'http.route': duration.route,
        'http.response.status_code': statusCode,
        ...(errorType === undefined ? {} : { 'error.type': errorType }),
      });
    }
  }
}

/** Answers `startRequest` for the GraphQL route `graphqlPath`; `duration` records `http.server.request.duration`. */
export function requestSpans(
  tracer: Tracer,
  propagator: TextMapPropagator,
  graphqlPath: string,
  duration?: RecordDuration,
): (request: TracedRequest) => SpanRequestTrace {
  return (request) => {
    const caller = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const server = tracer.startSpan(`${request.method} ${graphqlPath}`, { kind: SpanKind.SERVER }, caller);
    if (server.isRecording()) {
      const { url } = request;
      const queryAt = url.indexOf('?');
      server.setAttributes({
        'http.request.method': request.method,
        'http.route': graphqlPath,
        'url.scheme': request.protocol,
        'url.path': queryAt < 0 ? url : url.slice(0, queryAt),
        'server.address': request.hostname,
        'client.address': request.ip,
      });
      // A GET's document and variables are in its query: the parameter names only.
      if (queryAt >= 0) server.setAttribute('url.query', spanQuery(url.slice(queryAt + 1)));
      if (request.port !== null) server.setAttribute('server.port', request.port);
      const agent = request.headers['user-agent'];
      if (agent !== undefined) server.setAttribute('user_agent.original', agent);
    }
    return new SpanRequestTrace(
      server,
      trace.setSpan(caller, server),
      duration === undefined ? undefined : { record: duration, method: request.method, route: graphqlPath },
    );
  };
}
