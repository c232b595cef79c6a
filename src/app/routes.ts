/**
 * Assembly step: the gateway's routes besides `/graphql`, as one plugin: the probes, `/healthz` (alive) and
 * `/readyz` (started, not draining, and the upstream's state), `GET /metrics` (the Prometheus text of the
 * gateway's registry), and, when the landing page is on, the redirects that take a browser to the
 * explorers: `GET /` to the landing page (Apollo Sandbox on `/graphql`), and the trailing-slash spellings
 * `/graphql/` and `/graphiql/` to the real paths. Without them a first visit to the gateway's root, or a
 * pasted URL with a slash, meets a bare 404.
 *
 * Every `Location` is relative, so a path prefix added by a proxy in front of the gateway is kept. The
 * slash redirects are 308 (method and body kept), so a `POST /graphql/` still reaches GraphQL.
 */
import type { FastifyPluginCallback } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { RedisGuard } from '../auth/redis/redis-guard.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import type { UpstreamUrls } from '../upstream/client/types.ts';
import type { ResilientClient } from '../upstream/resilience/resilience.ts';
import { createReadinessProbe } from './readiness-probe.ts';
import type { Draining } from './request-hooks.ts';

/** What {@link gatewayRoutes} reads. */
export interface RoutesOptions {
  config: GatewayConfig;
  urls: UpstreamUrls;
  /** The upstream stack, whose breakers `/readyz` reports (by base name, never by address). */
  upstream: ResilientClient;
  draining: Draining;
  metrics: GatewayMetrics;
  /** Redis behind its guard (`REDIS_URL`), whose state `/readyz` reports. */
  redis?: RedisGuard | undefined;
}

const routes: FastifyPluginCallback<RoutesOptions> = (app, options, done) => {
  const { config, upstream, draining, metrics, redis } = options;
  const upstreamState = createReadinessProbe({
    url: options.urls.studioUrl,
    isFailingFast: () => upstream.isFailingFast(),
  });
  app.get('/healthz', () => ({ status: 'ok' }));
  // A sidecar's readiness is its own: an upstream outage it cannot fix must not take the front-end beside it
  // out of the Service (answers there are coded UPSTREAM_UNAVAILABLE). READINESS_REQUIRES_UPSTREAM=true
  // makes the upstream gate readiness, for deployments where another replica could do better.
  app.get('/readyz', async (_request, reply) => {
    const breakers = upstream.breakerStates();
    const state = await upstreamState();
    const upstreamStatus = upstream.isFailingFast() ? 'circuit open' : state;
    // A slow upstream still answers: no other replica would do better.
    const upstreamServes = upstreamStatus === 'ok' || upstreamStatus === 'slow';
    const status = draining.active
      ? 'draining'
      : config.readinessRequiresUpstream && !upstreamServes
        ? `upstream ${upstreamStatus}`
        : 'ready';
    // Redis is never a readiness gate: bypassed or full, this replica still serves from its own memory
    // (degraded, not unready), and every replica would fail the probe together.
    const shared = redis === undefined ? {} : { redis: redisDetail(redis) };
    return reply
      .code(status === 'ready' ? 200 : 503)
      .send({ status, upstream: { status: upstreamStatus, breakers }, ...shared });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  // The explorers follow the landing page setting (off in production unless LANDING_PAGE=true); GraphiQL
  // is served at `/graphiql` whenever the landing page is (`graphql-route.ts`).
  if (config.landingPage) {
    app.get('/', (_request, reply) => reply.code(302).header('location', 'graphql').send());
    app.route({
      method: ['GET', 'POST'],
      url: '/graphql/',
      handler: (_request, reply) => reply.code(308).header('location', '../graphql').send(),
    });
    app.get('/graphiql/', (_request, reply) => reply.code(308).header('location', '../graphiql').send());
  }
  done();
};

/** What `/readyz` says of Redis: its state, and what this replica does about it. */
function redisDetail(redis: RedisGuard): { status: string; detail: string } {
  const status = redis.status();
  if (status === 'bypassed') {
    return { status, detail: 'bypassed: its breaker is open; this replica answers from its own memory' };
  }
  if (!redis.isUp()) {
    return { status: 'unreachable', detail: 'not connected; this replica answers from its own memory' };
  }
  if (status === 'full') {
    return { status, detail: 'refuses writes (out of memory); logouts are kept here and retried' };
  }
  return { status: 'ok', detail: 'used' };
}

/** The plugin; routes on the gateway's own instance (no encapsulation: the gateway's hooks cover them). */
export const gatewayRoutes = fastifyPlugin(routes, { name: 'gateway-routes', fastify: '5.x' });
