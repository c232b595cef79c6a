/** Assembly step: the probes, `/healthz` (alive) and `/readyz` (started, not draining, and the upstream's state). */
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { ResilientClient } from '../upstream/resilience/resilience.ts';
import type { UpstreamUrls } from '../upstream/client/types.ts';
import type { Draining } from './draining.ts';
import { createReadinessProbe } from './health.ts';

/** What {@link registerProbes} reads. */
export interface ProbesOptions {
  config: GatewayConfig;
  urls: UpstreamUrls;
  /** The upstream stack, whose breakers `/readyz` reports. */
  upstream: ResilientClient;
  draining: Draining;
}

/** Registers both probes. */
export function registerProbes(app: FastifyInstance, options: ProbesOptions): void {
  const { config, upstream, draining } = options;
  const upstreamReachable = createReadinessProbe(options.urls.studioUrl);
  app.get('/healthz', () => ({ status: 'ok' }));
  // A sidecar's readiness is its own: an upstream outage it cannot fix must not take the front-end beside it
  // out of the Service (answers there are coded UPSTREAM_UNAVAILABLE). READINESS_REQUIRES_UPSTREAM=true
  // makes the upstream gate readiness, for deployments where another replica could do better.
  app.get('/readyz', async (_request, reply) => {
    const breakers = upstream.breakerStates();
    const reachable = await upstreamReachable();
    const upstreamStatus = upstream.isFailingFast() ? 'circuit open' : reachable ? 'ok' : 'unreachable';
    const status = draining.isDraining()
      ? 'draining'
      : config.readinessRequiresUpstream && upstreamStatus !== 'ok'
        ? `upstream ${upstreamStatus}`
        : 'ready';
    return reply
      .code(status === 'ready' ? 200 : 503)
      .send({ status, upstream: { status: upstreamStatus, breakers } });
  });
}
