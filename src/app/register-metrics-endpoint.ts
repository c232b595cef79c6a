/** Assembly step: `GET /metrics`, the Prometheus text of the gateway's registry. */
import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../observability/metrics.ts';

/** Registers the route. */
export function registerMetricsEndpoint(app: FastifyInstance, metrics: GatewayMetrics): void {
  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
