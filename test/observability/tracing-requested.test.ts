/** When tracing is on: only when the standard OTEL_* variables ask for traces. */
import { describe, expect, it } from 'vitest';
import { tracingRequested } from '../../src/observability/tracing/tracing.ts';

describe('tracingRequested', () => {
  it('should be off without any OTEL_* variable, so the SDK is never loaded', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'gateway' })).toBe(false);
  });

  it('should be on with an OTLP endpoint or a traces exporter', () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
  });

  it('should stay off when the exporter is none or the SDK is disabled', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(tracingRequested({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingRequested({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });
});
