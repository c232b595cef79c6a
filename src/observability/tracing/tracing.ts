/**
 * What the gateway asks of tracing, with no OpenTelemetry import: the SDK behind it is loaded only when the
 * standard `OTEL_*` variables ask for traces (`start-tracing.ts`), so without them tracing costs nothing,
 * not even a module load.
 *
 * Spans are made by hand where the gateway knows the moment (no instrumentation patches a package): the
 * request's server span in a Fastify hook, its operation span in an Apollo plugin, the upstream call and its
 * HTTP attempts in the upstream stack. A request's span travels explicitly, in its {@link RequestTrace} on
 * the gateway's own request scope; nothing depends on a patched module entering an async context.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { UpstreamAttempt, UpstreamAttemptCall } from '../../upstream/client/types.ts';
import type { WireOperation } from '../../upstream/client/wire.ts';
import type { RequestTenant } from '../request-tenant.ts';

/** The ids of a span, as a log line carries them (`trace_id`, `span_id`, `trace_flags`). */
export interface TraceContext {
  /** 32 hex digits. */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  /** W3C trace flags; bit 0 is `sampled`. */
  traceFlags: number;
}

/** The fields a log line names a span with, as OpenTelemetry's log data model calls them. */
export interface TraceLogFields {
  trace_id: string;
  span_id: string;
  /** Two hex digits: `01` sampled, `00` not. */
  trace_flags: string;
}

/** `context` as log fields. */
export function traceLogFields(context: TraceContext): TraceLogFields {
  return {
    trace_id: context.traceId,
    span_id: context.spanId,
    trace_flags: context.traceFlags.toString(16).padStart(2, '0'),
  };
}

/** What the server span reads of an arriving request (a Fastify request has all of it). */
export interface TracedRequest {
  method: string;
  /** Path and query; the query's values never reach a span. */
  url: string;
  /** The caller's `traceparent`, `tracestate` and `baggage` are read from these. */
  headers: IncomingHttpHeaders;
  ip: string;
  protocol: string;
  hostname: string;
  port: number | null;
}

/**
 * One GraphQL request's trace: its server span, and the span its children hang under (the operation span
 * once execution starts). Lives on the request's scope from the first hook to the response.
 */
export interface RequestTrace {
  /** The server span's ids, as the request's log lines carry them. */
  readonly ids: TraceContext;
  /**
   * Records on the server span a request refused before GraphQL ran (a body too large, a wrong method, an
   * unknown persisted document) by its code; never a message.
   */
  refuse(code: string): void;
  /** Names on the server span whose request it is (`gateway.application`, `gateway.organization`). */
  tenant(tenant: RequestTenant): void;
  /** Ends the server span with the answered status. */
  end(statusCode: number): void;
}

/** Tracing switched on; absent from the gateway's options otherwise. */
export interface GatewayTracing {
  /** Starts the server span of a request to the GraphQL route, under the caller's trace context if any. */
  startRequest(request: TracedRequest): RequestTrace;
  /**
   * Runs one upstream call (retries included) for `parent` (the request's trace; no span without one:
   * readiness checks and other calls outside a GraphQL request make none): its attempts' CLIENT spans carry
   * the operation and the batch size (the records asked for); a call refused before any attempt gets a span
   * `upstream <operation>` with its outcome class (the blame of its error).
   */
  upstreamCall<T>(
    parent: RequestTrace | undefined,
    operation: WireOperation,
    batchSize: number,
    call: () => Promise<T>,
  ): Promise<T>;
  /** Counts a retry on the upstream call being made (inside {@link GatewayTracing.upstreamCall}). */
  countRetry(): void;
  /** The upstream client's hook: one HTTP CLIENT span per attempt of the upstream call being made. */
  readonly upstreamAttempt: (call: UpstreamAttemptCall) => UpstreamAttempt | undefined;
  /**
   * The operation span, the server span named after the GraphQL operation, a refusal before execution
   * recorded on it; `traceOf` finds the request's trace.
   */
  apolloPlugin<TContext extends BaseContext>(
    traceOf: () => RequestTrace | undefined,
  ): ApolloServerPlugin<TContext>;
  /** Sends the spans still buffered; call once, at exit. */
  shutdown(): Promise<void>;
}

/**
 * Whether the standard variables ask for traces: an OTLP endpoint or a traces exporter other than `none`,
 * and the SDK not disabled (`OTEL_SDK_DISABLED=true`).
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return false;
  return (
    (exporter !== undefined && exporter !== '') ||
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT) ||
    Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  );
}
