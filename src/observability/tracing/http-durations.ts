/**
 * The semantic conventions' HTTP duration histograms, recorded only when `OTEL_METRICS_EXPORTER` names an
 * exporter (the gateway's own metrics are Prometheus at `/metrics`): `http.server.request.duration` per
 * GraphQL request and `http.client.request.duration` per upstream attempt, with the low-cardinality
 * attributes the conventions name (never a URL). See
 * https://opentelemetry.io/docs/specs/semconv/http/http-metrics/.
 */
import { ValueType, type Attributes, type Meter } from '@opentelemetry/api';

/** Records one duration, in seconds, with its attributes. */
export type RecordDuration = (seconds: number, attributes: Attributes) => void;

/** The two histograms. */
export interface HttpDurations {
  server: RecordDuration;
  client: RecordDuration;
}

/** The conventions' advised boundaries, in seconds. */
const BOUNDARIES = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** The histograms of `meter`. */
export function httpDurations(meter: Meter): HttpDurations {
  const options = {
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: BOUNDARIES },
  };
  const server = meter.createHistogram('http.server.request.duration', {
    ...options,
    description: 'Duration of HTTP server requests.',
  });
  const client = meter.createHistogram('http.client.request.duration', {
    ...options,
    description: 'Duration of HTTP client requests.',
  });
  return {
    server: (seconds, attributes) => {
      server.record(seconds, attributes);
    },
    client: (seconds, attributes) => {
      client.record(seconds, attributes);
    },
  };
}
