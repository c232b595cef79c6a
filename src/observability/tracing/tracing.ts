/**
 * What the gateway asks of tracing, with no OpenTelemetry import: the SDK behind it is loaded only when the
 * standard `OTEL_*` variables ask for traces (`start-tracing.ts`), so without them tracing costs nothing,
 * not even a module load.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { WireOperation } from '../../upstream/client/wire.ts';

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

/** Tracing switched on; absent from the gateway's options otherwise. */
export interface GatewayTracing {
  /** The ids of the active span (the request's server span where the request log reads it). */
  currentTraceContext(): TraceContext | undefined;
  /**
   * Runs one upstream call (retries included) in a span `upstream <operation>` with its batch size (the
   * records asked for), retries and outcome class (`ok` or the blame of its error).
   */
  upstreamCall<T>(operation: WireOperation, batchSize: number, call: () => Promise<T>): Promise<T>;
  /** Counts a retry on the current upstream span. */
  countRetry(): void;
  /**
   * Records on the active span (the request's server span, in a Fastify hook or handler) a request refused
   * before GraphQL ran (a body too large, a wrong method, an unknown persisted document), by its code.
   */
  recordRefusal(code: string): void;
  /** Names the request's server span after its GraphQL operation; records a refusal before execution. */
  apolloPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext>;
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
