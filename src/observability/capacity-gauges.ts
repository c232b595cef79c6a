/**
 * Saturation gauges: for every resource the gateway caps, what is in use now and the cap, as two gauges
 * side by side (`gateway_connections_open` and `gateway_connections_limit`, …), so a dashboard or an alert
 * divides one by the other without knowing the settings (`deploy/prometheus/` records the ratios as
 * `gateway:saturation:ratio{resource}`). Values are read when Prometheus scrapes, from the component that
 * holds the count: nothing is counted twice, and nothing costs anything between scrapes.
 */
import { Gauge, type Registry } from 'prom-client';

/** One capped resource's two gauges. */
interface CapacityNames {
  used: string;
  limit: string;
  help: string;
  setting: string;
}

/** Every capped resource, its gauges' names and the setting its cap comes from. */
export const CAPACITIES = {
  connections: {
    used: 'gateway_connections_open',
    limit: 'gateway_connections_limit',
    help: 'Client connections accepted and open now',
    setting: 'MAX_CONNECTIONS',
  },
  connections_waiting: {
    used: 'gateway_connections_waiting',
    limit: 'gateway_connections_waiting_limit',
    help: "Accepted connections not read yet, each in its address's line: the address opened its share of new connections this second (MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND; they count among gateway_connections_open)",
    setting: 'MAX_CONNECTIONS',
  },
  requests: {
    used: 'gateway_requests_in_flight',
    limit: 'gateway_requests_in_flight_limit',
    help: 'HTTP requests running now (one per connection; pipelined ones waiting behind it are not counted)',
    setting: 'MAX_CONNECTIONS',
  },
  request_body_bytes: {
    used: 'gateway_request_body_bytes_in_flight',
    limit: 'gateway_request_body_bytes_limit',
    help: 'Request body bytes received and not yet answered',
    setting: 'MAX_INFLIGHT_BODY_BYTES',
  },
  upstream_slots: {
    used: 'gateway_upstream_slots_in_use',
    limit: 'gateway_upstream_slots_limit',
    help: 'Upstream calls in flight (bulkhead slots taken)',
    setting: 'UPSTREAM_MAX_CONCURRENT',
  },
  upstream_queue: {
    used: 'gateway_upstream_queued_calls',
    limit: 'gateway_upstream_queued_calls_limit',
    help: 'Upstream calls waiting for a bulkhead slot',
    setting: 'UPSTREAM_MAX_QUEUED',
  },
  upstream_answer_bytes: {
    used: 'gateway_upstream_answer_bytes_in_use',
    limit: 'gateway_upstream_answer_bytes_limit',
    help: 'Upstream answer bytes held at once (read, not yet parsed and dropped)',
    setting: 'UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES',
  },
  session_revocations: {
    used: 'gateway_session_revocations',
    limit: 'gateway_session_revocations_limit',
    help: 'Logged-out sessions listed in this process (single tokens and per-user cut-offs)',
    setting: 'SESSION_REVOCATIONS_MAX',
  },
  cpu_waiting: {
    used: 'gateway_cpu_share_waiting_requests',
    limit: 'gateway_cpu_share_waiting_requests_limit',
    help: "GraphQL requests waiting for their caller's share of the gateway's own work (past the cap: GATEWAY_BUSY cpu)",
    setting: 'none: a constant of src/config/defaults.ts',
  },
  login_counters: {
    used: 'gateway_login_tracked_counters',
    limit: 'gateway_login_tracked_counters_limit',
    help: 'Failed-login counters this process holds, all kinds together',
    setting: 'LOGIN_MAX_TRACKED_COUNTERS',
  },
} as const satisfies Readonly<Record<string, CapacityNames>>;

/** A resource the gateway caps. */
export type CappedResource = keyof typeof CAPACITIES;

/** Says where a resource's use is read from and what its cap is. */
export type TrackCapacity = (resource: CappedResource, read: () => number, limit: number) => void;

/**
 * Registers both gauges of every resource in `registry`; each reads 0 (and its cap 0) until tracked, so
 * every name is in `/metrics` from the start.
 */
export function registerCapacityGauges(registry: Registry): TrackCapacity {
  const readers = new Map<CappedResource, () => number>();
  const limits = new Map<CappedResource, number>();
  for (const [resource, names] of Object.entries(CAPACITIES) as [CappedResource, CapacityNames][]) {
    new Gauge({
      name: names.used,
      help: `${names.help}.`,
      registers: [registry],
      collect() {
        this.set(readers.get(resource)?.() ?? 0);
      },
    });
    new Gauge({
      name: names.limit,
      help: `The cap of ${names.used} (${names.setting}).`,
      registers: [registry],
      collect() {
        this.set(limits.get(resource) ?? 0);
      },
    });
  }
  return (resource, read, limit) => {
    readers.set(resource, read);
    limits.set(resource, limit);
  };
}
