/**
 * Every attribute value of every span and span event, as JSON text, for the tests that search exported spans
 * for what may not leak; `except` leaves attributes out by key.
 */
import type { OtlpSpan } from './otlp-receiver.ts';

export function spanAttributeValues(spans: OtlpSpan[], except: readonly string[] = []): string[] {
  return spans.flatMap((span) =>
    [span, ...(span.events ?? [])].flatMap((holder) =>
      (holder.attributes ?? []).filter((a) => !except.includes(a.key)).map((a) => JSON.stringify(a.value)),
    ),
  );
}
