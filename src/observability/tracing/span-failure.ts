/**
 * A failed span as the gateway records it, on every kind of span (the request's server span, the operation
 * span, a field's span, an upstream attempt's or refused call's span): `error.type`, a code of few values (an
 * HTTP status, an error code, an upstream error's kind), and status error with no description. Never a
 * message: an error's message may quote the caller's literals or the upstream's text.
 */
import { SpanStatusCode, type Span } from '@opentelemetry/api';

export function markSpanFailed(span: Span, errorType: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
}
