/**
 * The spans of the upstream stack. Per upstream call, the gateway's INTERNAL span `upstream <operation>`
 * under the request's (the operation span), with the batch size, the retries and the outcome class: it
 * covers the wait for a slot and every retry, which no HTTP span can show. Under it, one HTTP CLIENT span
 * per attempt, made where the upstream client sends it (`UpstreamClientOptions.onAttempt`), by the semantic
 * conventions (https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-client), with the context
 * sent upstream only as `UPSTREAM_PROPAGATE_TRACE` and `UPSTREAM_BAGGAGE_KEYS` allow.
 *
 * The call's span reaches its attempts through this module's own async storage, entered here around the
 * call: the resilience layer between them (retries, backoff) takes no tracing argument.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { isUpstreamError } from '../../errors/upstream-error.ts';
import type { UpstreamAttempt, UpstreamAttemptCall } from '../../upstream/client/types.ts';
import type { RecordDuration } from './http-durations.ts';
import { SpanRequestTrace } from './request-span.ts';
import { spanUrl } from './span-url.ts';
import type { GatewayTracing } from './tracing.ts';

/** The span attributes of an upstream call. */
const UpstreamSpanAttribute = {
  OPERATION: 'gateway.upstream.operation',
  BATCH_SIZE: 'gateway.upstream.batch_size',
  RETRIES: 'gateway.upstream.retries',
  OUTCOME: 'gateway.upstream.outcome',
  ERROR_KIND: 'gateway.upstream.error_kind',
} as const;

/** One upstream call being made. */
interface CallState {
  readonly span: Span;
  /** Its attempts' parent: the request's context with the call's span. */
  readonly context: Context;
  retries: number;
}

/** Options of {@link upstreamSpans}. */
export interface UpstreamSpansOptions {
  /** Injects the context into an attempt's headers, as the settings allow (`upstream-propagator.ts`). */
  propagator: TextMapPropagator;
  /** Whether anything may be sent upstream at all: without, no attempt pays for an injection. */
  sendsContext: boolean;
  /** Records `http.client.request.duration` (`OTEL_METRICS_EXPORTER` set). */
  duration?: RecordDuration | undefined;
}

/** `server.address` and `server.port` of an origin (`http://host:port`), parsed once per origin. */
function serverOf(origins: Map<string, [string, number]>, origin: string): [string, number] {
  let server = origins.get(origin);
  if (server === undefined) {
    const url = new URL(origin);
    server = [url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80)];
    origins.set(origin, server);
  }
  return server;
}

/** The `error.type` of a failed attempt: its status of 400 or more, else the error's kind. */
function attemptErrorType(status: number | undefined, error: unknown): string {
  if (status !== undefined && status >= 400) return String(status);
  if (isUpstreamError(error)) return error.httpStatus === undefined ? error.kind : String(error.httpStatus);
  return error instanceof Error ? error.name : 'Error';
}

/** The upstream part of {@link GatewayTracing}. */
export function upstreamSpans(
  tracer: Tracer,
  options: UpstreamSpansOptions,
): Pick<GatewayTracing, 'upstreamCall' | 'countRetry' | 'upstreamAttempt'> {
  const calls = new AsyncLocalStorage<CallState>();
  const origins = new Map<string, [string, number]>();

  function upstreamCall<T>(
    parent: unknown,
    operation: string,
    batchSize: number,
    call: () => Promise<T>,
  ): Promise<T> {
    if (!(parent instanceof SpanRequestTrace)) return call();
    const span = tracer.startSpan(`upstream ${operation}`, { kind: SpanKind.INTERNAL }, parent.parent);
    const recording = span.isRecording();
    if (recording) {
      span.setAttributes({
        [UpstreamSpanAttribute.OPERATION]: operation,
        [UpstreamSpanAttribute.BATCH_SIZE]: batchSize,
        [UpstreamSpanAttribute.RETRIES]: 0,
      });
    }
    const state: CallState = { span, context: trace.setSpan(parent.parent, span), retries: 0 };
    return calls.run(state, call).then(
      (result) => {
        if (recording) span.setAttribute(UpstreamSpanAttribute.OUTCOME, 'ok');
        span.end();
        return result;
      },
      (error: unknown) => {
        if (recording) {
          // The blame and kind only: an upstream message may quote the caller's input.
          const known = isUpstreamError(error);
          span.setAttribute(UpstreamSpanAttribute.OUTCOME, known ? error.blame : 'gateway');
          if (known) span.setAttribute(UpstreamSpanAttribute.ERROR_KIND, error.kind);
          span.setAttribute('error.type', known ? error.kind : 'internal');
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
        throw error;
      },
    );
  }

  function upstreamAttempt(call: UpstreamAttemptCall): UpstreamAttempt | undefined {
    const state = calls.getStore();
    if (state === undefined) return undefined;
    const span = tracer.startSpan(call.method, { kind: SpanKind.CLIENT }, state.context);
    const recording = span.isRecording();
    const { duration } = options;
    const startedAt = duration === undefined ? 0 : performance.now();
    if (recording) {
      const [address, port] = serverOf(origins, call.origin);
      // The raw URL never enters the span: its query holds the username, the apiToken and filter values.
      const url = spanUrl(`${call.origin}${call.path}`);
      const queryAt = url.indexOf('?');
      span.setAttributes({
        'http.request.method': call.method,
        'server.address': address,
        'server.port': port,
        'url.full': url,
        'url.path': queryAt < 0 ? call.path : call.path.slice(0, call.path.indexOf('?')),
      });
      if (queryAt >= 0) span.setAttribute('url.query', url.slice(queryAt + 1));
      if (state.retries > 0) span.setAttribute('http.request.resend_count', state.retries);
    }
    let headers: Record<string, string> | undefined;
    if (options.sendsContext) {
      const carrier: Record<string, string> = {};
      options.propagator.inject(trace.setSpan(state.context, span), carrier, defaultTextMapSetter);
      headers = Object.keys(carrier).length === 0 ? undefined : carrier;
    }
    return {
      headers,
      end(status, error) {
        const code = status ?? (isUpstreamError(error) ? error.httpStatus : undefined);
        const errorType = error === undefined ? undefined : attemptErrorType(code, error);
        if (recording) {
          if (code !== undefined) span.setAttribute('http.response.status_code', code);
          if (errorType !== undefined) {
            span.setAttribute('error.type', errorType);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
        }
        span.end();
        if (duration !== undefined) {
          const [address, port] = serverOf(origins, call.origin);
          duration((performance.now() - startedAt) / 1000, {
            'http.request.method': call.method,
            'server.address': address,
            'server.port': port,
            ...(code === undefined ? {} : { 'http.response.status_code': code }),
            ...(errorType === undefined ? {} : { 'error.type': errorType }),
          });
        }
      },
    };
  }

  return {
    upstreamCall,
    upstreamAttempt,
    countRetry() {
      const state = calls.getStore();
      if (state === undefined) return;
      state.retries += 1;
      if (state.span.isRecording()) state.span.setAttribute(UpstreamSpanAttribute.RETRIES, state.retries);
    },
  };
}
