/**
 * Builds the gateway: the upstream client, the Apollo Server, and the Fastify listener with `/graphql`,
 * `/healthz`, `/readyz` and `/metrics`. Each step is one file of this folder, called in order below; the
 * Fastify parts are plugins, registered with `app.register`.
 */
import type { FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import { connectRedis } from '../auth/redis/redis-connection.ts';
import { createRedisGuard, type RedisGuard } from '../auth/redis/redis-guard.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { upstreamUrlsOf } from '../config/upstream-urls.ts';
import type { GatewayServices } from '../graphql/context.ts';
import { PACKAGE_VERSION } from '../observability/build-version.ts';
import { createMetrics, type GatewayMetrics } from '../observability/metrics.ts';
import { createRequestScopes } from '../observability/request-scope.ts';
import { createUpstreamFailureLog } from '../observability/upstream-failure-log.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
import { loadTrustedDocuments } from '../trusted/trusted-documents.ts';
import { createRecheckAnalyser } from '../upstream/pattern-guard/redos-analyser.ts';
import type { ResilientClient } from '../upstream/resilience/resilience.ts';
import { createApollo } from './create-apollo.ts';
import { createFastify, listenUrl } from './create-fastify.ts';
import { createGatewayLogger, logBreakerChanges, logDialectMismatches } from './create-gateway-logger.ts';
import { createServices } from './create-services.ts';
import { graphqlRoute } from './graphql-route.ts';
import { createDraining, requestHooks } from './request-hooks.ts';
import { gatewayRoutes } from './routes.ts';
import { createUpstreamStack } from './upstream-stack.ts';

const GRAPHQL_PATH = '/graphql';

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** The settings; an embedded emulator's addresses filled in (`withEmulatorAt`). */
  config: GatewayConfig;
  /** Inject an undici dispatcher (tests). */
  dispatcher?: Dispatcher;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** OpenTelemetry, when the `OTEL_*` variables switched it on (`src/observability/tracing/start-tracing.ts`). */
  tracing?: GatewayTracing;
}

/** A built gateway; `listen` starts serving. */
export interface Gateway {
  app: FastifyInstance;
  services: GatewayServices;
  metrics: GatewayMetrics;
  /** The upstream client with its breakers (readiness, tests). */
  upstream: ResilientClient;
  /** Listens on `config.host:config.port` and answers the base URL (`http://host:port`). */
  listen(): Promise<string>;
  /** Flips `/readyz` to 503 "draining"; requests are still served (see `src/app/shutdown.ts`). */
  startDraining(): void;
  /** Stops accepting, lets in-flight requests finish, closes upstream pools and the Redis connection. */
  close(): Promise<void>;
}

/** Builds the gateway (Apollo started, routes registered) without listening. */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { config, tracing } = options;
  const urls = upstreamUrlsOf(config);
  // Read first: a bad manifest stops the start before anything is opened.
  const trustedDocuments =
    config.trustedDocuments.files.length > 0
      ? loadTrustedDocuments(config.trustedDocuments.files)
      : undefined;
  const metrics = createMetrics({
    build: { version: PACKAGE_VERSION, commit: config.gitCommit },
    organizations: config.allowedOrganizationCodes,
  });
  const scopes = createRequestScopes();
  const logger = createGatewayLogger(
    config,
    options.logStream,
    tracing === undefined ? undefined : () => scopes.current()?.trace?.ids,
  );
  const failures = createUpstreamFailureLog(logger);
  const connectGuardedRedis = async (url: string): Promise<RedisGuard> => {
    const log = logger.child({ component: 'redis' });
    const client = await connectRedis(url, log);
    return createRedisGuard({ redis: client, log, commandTimeoutMillis: config.redisCommandTimeoutMillis });
  };
  const upstream = createUpstreamStack({
    config,
    urls,
    metrics,
    scopes,
    failures,
    dispatcher: options.dispatcher,
    tracing,
    onBreakerStateChange: logBreakerChanges(logger),
  });
  const redis = config.redisUrl === undefined ? undefined : await connectGuardedRedis(config.redisUrl);
  // The pattern checker's one worker, warmed up now (before the gateway listens, so before it is ready):
  // started on the first caller's pattern it stalled that request ~2.7 s and refused the pattern.
  const checker = createRecheckAnalyser();
  if (!(await checker.warmUp())) {
    logger.warn('the pattern checker did not start; patterns that need analysis will be refused');
  }
  const services = createServices({
    config,
    upstream,
    logger,
    metrics,
    redis,
    scopes,
    patternAnalyser: checker.analyse,
  });

  const app = createFastify(config, logger, metrics);
  const draining = createDraining();
  metrics.trackDraining(() => draining.active);
  // Fastify's plugins, in order: the hooks before the routes they cover.
  await app.register(requestHooks, {
    config,
    scopes,
    metrics,
    graphqlPath: GRAPHQL_PATH,
    trustedDocuments,
    tracing,
    draining,
  });
  const apollo = await createApollo({
    config,
    services,
    app,
    scopes,
    tracing,
    metrics,
    trustedDocuments,
    onDialectMismatch: logDialectMismatches(logger),
  });
  await app.register(graphqlRoute, { config, apollo, services, path: GRAPHQL_PATH });
  if (redis !== undefined) {
    metrics.trackRedis({
      up: () => redis.isUp(),
      full: () => redis.status() === 'full',
      bypasses: () => redis.bypasses(),
      fallbacks: () => redis.fallbacks(),
      unsharedRevocations: () => services.revocations.unshared(),
    });
  }
  await app.register(gatewayRoutes, { config, urls, upstream, draining, metrics, redis });

  return {
    app,
    services,
    metrics,
    upstream,
    listen: () => listenUrl(app, config),
    startDraining: () => {
      draining.start();
    },
    async close() {
      draining.start();
      await app.close();
      await upstream.close();
      failures.close();
      await checker.close();
      services.revocations.close();
      await redis?.close();
    },
  };
}
