/**
 * The standard `OTEL_*` variables that make the gateway export its spans as OTLP/HTTP (JSON) to `receiver`,
 * batched every 100 ms, for the tracing tests.
 */
import type { OtlpReceiver } from './otlp-receiver.ts';

export function otlpExportEnv(receiver: Pick<OtlpReceiver, 'url'>): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
}
