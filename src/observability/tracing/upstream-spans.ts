/**
 * The spans of the upstream stack: one HTTP CLIENT span per attempt, made where the upstream client sends it
 * (`UpstreamClientOptions.onAttempt`), under the request's operation span, by the semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-client), with the gateway's own
 * attributes of the call beside them: the operation, the batch size (records asked for) and, for an attempt
 * that failed, the outcome class (the error's blame) and kind. A retry is its own CLIENT span with
 * `http.request.resend_count`. The span ends once the answer is read and checked, so an answer that says
 * `error` (a refused token, an unreadable answer) fails it too.
 *
 * A call refused before any attempt (breaker open, bulkhead full, retry budget, the request's deadline) gets
 * the only INTERNAL span, `upstream <operation>`, from the call's start: otherwise it would leave no trace.
 * One span per call instead of a call span above its attempts: every span costs about 10 µs of CPU with its
 * export, a third of tracing's price on a one-call request; the wait for a slot shows as the gap before the
 * attempt.
 *
 * The call's state reaches its attempts through this module's own async storage, entered here around the
 * call: the resilience layer between them (retries, backoff) takes no tracing argument.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  defaultTextMapSetter,
  SpanKind,
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
import { markSpanFailed } from './span-failure.ts';
import { spanUrl } from './span-url.ts';
import type { GatewayTracing } from './tracing.ts';

/** The gateway's attributes of an upstream call. */
const UpstreamSpanAttribute = {
  OPERATION: 'gateway.upstream.operation',
  BATCH_SIZE: 'gateway.upstream.batch_size',
  RETRIES: 'gateway.upstream.retries',
  OUTCOME: 'gateway.upstream.outcome',
  ERROR_KIND: 'gateway.upstream.error_kind',
} as const;

/** One upstream call being made. */
interface CallState {
  /** Its spans' parent: the request's context (the operation span). */
  readonly parent: Context;
  readonly operation: string;
  readonly batchSize: number;
  /** `performance.now()` at its start: a refused call's span starts there. */
  readonly startedAt: number;
  retries: number;
  attempts: number;
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
  if (isUpstreamError(error)) return error.kind;
  return error instanceof Error ? error.name : 'Error';
}

/** Records on `span` the failure `error`: outcome class, kind, `error.type`, status error; never a message. */
function recordFailure(span: Span, error: unknown, errorType: string): void {
  const known = isUpstreamError(error);
  span.setAttribute(UpstreamSpanAttribute.OUTCOME, known ? error.blame : 'gateway');
  if (known) span.setAttribute(UpstreamSpanAttribute.ERROR_KIND, error.kind);
  markSpanFailed(span, errorType);
}

/** The upstream part of {@link GatewayTracing}. */
export function upstreamSpans(
  tracer: Tracer,
  options: UpstreamSpansOptions,
): Pick<GatewayTracing, 'upstreamCall' | 'countRetry' | 'upstreamAttempt'> {
  const calls = new AsyncLocalStorage<CallState>();
  const origins = new Map<string, [string, number]>();

  /** The span of a call refused before any attempt. */
  function refusedCall(state: CallState, error: unknown): void {
    const span = tracer.startSpan(
      `upstream ${state.operation}`,
      { kind: SpanKind.INTERNAL, startTime: state.startedAt },
      state.parent,
    );
    if (span.isRecording()) {
      span.setAttributes({
        [UpstreamSpanAttribute.OPERATION]: state.operation,
        [UpstreamSpanAttribute.BATCH_SIZE]: state.batchSize,
        [UpstreamSpanAttribute.RETRIES]: state.retries,
      });
      recordFailure(span, error, isUpstreamError(error) ? error.kind : 'internal');
    }
    span.end();
  }

  function upstreamCall<T>(
    parent: unknown,
    operation: string,
    batchSize: number,
    call: () => Promise<T>,
  ): Promise<T> {
    if (!(parent instanceof SpanRequestTrace)) return call();
    const state: CallState = {
      parent: parent.parent,
      operation,
      batchSize,
      startedAt: performance.now(),
      retries: 0,
      attempts: 0,
    };
    return calls.run(state, call).catch((error: unknown) => {
      if (state.attempts === 0) refusedCall(state, error);
      throw error;
    });
  }

  function upstreamAttempt(call: UpstreamAttemptCall): UpstreamAttempt | undefined {
    const state = calls.getStore();
    if (state === undefined) return undefined;
    state.attempts += 1;
    const span = tracer.startSpan(call.method, { kind: SpanKind.CLIENT }, state.parent);
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
        [UpstreamSpanAttribute.OPERATION]: state.operation,
        [UpstreamSpanAttribute.BATCH_SIZE]: state.batchSize,
      });
      if (queryAt >= 0) span.setAttribute('url.query', url.slice(queryAt + 1));
      if (state.retries > 0) span.setAttribute('http.request.resend_count', state.retries);
    }
    let headers: Record<string, string> | undefined;
    if (options.sendsContext) {
      const carrier: Record<string, string> = {};
      options.propagator.inject(trace.setSpan(state.parent, span), carrier, defaultTextMapSetter);
      headers = Object.keys(carrier).length === 0 ? undefined : carrier;
    }
    return {
      headers,
      end(status, error) {
        const code = status ?? (isUpstreamError(error) ? error.httpStatus : undefined);
        const errorType = error === undefined ? undefined : attemptErrorType(code, error);
        if (recording) {
          if (code !== undefined) span.setAttribute('http.response.status_code', code);
          if (errorType === undefined) span.setAttribute(UpstreamSpanAttribute.OUTCOME, 'ok');
          else recordFailure(span, error, errorType);
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
      if (state !== undefined) state.retries += 1;
    },
  };
}
