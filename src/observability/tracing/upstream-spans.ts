/**
 * The gateway's own span around each upstream call: INTERNAL (the HTTP CLIENT spans are undici's, one per
 * attempt, under it), named `upstream <operation>`, with the batch size, the retries and the outcome class.
 * It covers the wait for a slot and every retry, which no HTTP span can show.
 */
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { isUpstreamError } from '../../errors/upstream-error.ts';
import type { GatewayTracing } from './tracing.ts';

/** The span attributes of an upstream call. */
const UpstreamSpanAttribute = {
  OPERATION: 'gateway.upstream.operation',
  BATCH_SIZE: 'gateway.upstream.batch_size',
  RETRIES: 'gateway.upstream.retries',
  OUTCOME: 'gateway.upstream.outcome',
  ERROR_KIND: 'gateway.upstream.error_kind',
} as const;

/** The upstream part of {@link GatewayTracing}, plus the retries of the current call for its HTTP spans. */
export interface UpstreamSpans extends Pick<GatewayTracing, 'upstreamCall' | 'countRetry'> {
  /** Retries so far of the upstream call whose span is active: an HTTP attempt's `http.request.resend_count`. */
  currentRetries(): number;
}

/** Creates the upstream spans of `tracerName`'s tracer. */
export function upstreamSpans(tracerName: string): UpstreamSpans {
  const tracer = trace.getTracer(tracerName);
  const retries = new WeakMap<Span, number>();

  return {
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
            const blame = isUpstreamError(error) ? error.blame : 'gateway';
            span.setAttribute(UpstreamSpanAttribute.OUTCOME, blame);
            if (isUpstreamError(error)) span.setAttribute(UpstreamSpanAttribute.ERROR_KIND, error.kind);
            span.setAttribute('error.type', isUpstreamError(error) ? error.kind : 'internal');
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
    currentRetries() {
      const span = trace.getActiveSpan();
      return span === undefined ? 0 : (retries.get(span) ?? 0);
    },
  };
}
