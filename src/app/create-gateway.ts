/**
 * Builds the gateway: the upstream client, the Apollo Server, and the Fastify listener with `/graphql`,
 * `/healthz`, `/readyz` and `/metrics`.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDisableSuggestions } from '@apollo/server/plugin/disableSuggestions';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import { createAccountLinks } from '../auth/account-links.ts';
import { createDeviceTokens } from '../auth/device-token.ts';
import { createLoginLimiter } from '../auth/login-limiter.ts';
import { createLoginProtection } from '../auth/login-protection.ts';
import { createDeadSessionPlugin } from '../auth/dead-session-plugin.ts';
import { connectRedis, redisPassword } from '../auth/redis-connection.ts';
import { createSessionRevocations } from '../auth/session-revocations.ts';
import type { GatewayConfig } from '../config.ts';
import { createContext, type GatewayServices, type GraphQLContext } from '../graphql/context.ts';
import { createReadinessProbe } from './health.ts';
import { registerCors } from '../http/cors.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { registerExplorerRedirects } from '../http/explorer-redirects.ts';
import { registerGraphiql } from '../http/graphiql.ts';
import { linkGraphiqlFromLandingPage } from '../http/graphiql-link.ts';
import { registerGraphqlHeaders } from '../http/graphql-headers.ts';
import { registerTrustedDocuments } from '../http/trusted-documents-hook.ts';
import { refuseSubscriptions } from '../http/refuse-subscriptions.ts';
import { httpServerOptions } from '../http/server-options.ts';
import { EXAMPLE_DOCUMENT, EXAMPLE_HEADERS } from './landing-page.ts';
import { createQueryLimits } from '../limits/armor.ts';
import { createUpstreamCallLimit } from '../limits/upstream-call-limit.ts';
import { createLogger } from '../observability/logger.ts';
import { createMetrics, type GatewayMetrics } from '../observability/metrics.ts';
import { registerRequestLog, requestIdFor } from '../observability/request-log.ts';
import { createRequestLogPlugin } from '../observability/request-log-plugin.ts';
import { createRequestScopes } from '../observability/request-scope.ts';
import type { GatewayTracing } from '../observability/tracing.ts';
import { createErrorFormatter } from '../graphql/errors.ts';
import { buildSchema } from '../graphql/schema.ts';
import { createSessionSealer } from '../auth/session.ts';
import { withCoalescing } from '../upstream/coalesce.ts';
import { createPatternGuard } from '../upstream/pattern-guard.ts';
import type { ResilientClient } from '../upstream/resilience.ts';
import { createUpstreamStack } from './upstream-stack.ts';
import { loadTrustedDocuments } from '../trusted/trusted-documents.ts';

/** The four upstream base addresses. */
export interface UpstreamUrls {
  apiUrl: string;
  baseUrl: string;
  studioUrl: string;
  serverUrl: string;
}

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  config: GatewayConfig;
  upstreamUrls: UpstreamUrls;
  /** Inject an undici dispatcher (tests). */
  dispatcher?: Dispatcher;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** OpenTelemetry, when the `OTEL_*` variables switched it on (`src/observability/start-tracing.ts`). */
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
  const { config, upstreamUrls } = options;
  // Read first: a bad manifest stops the start before anything is opened.
  const trustedDocuments =
    config.trustedDocuments.files.length > 0
      ? loadTrustedDocuments(config.trustedDocuments.files)
      : undefined;
  const metrics = createMetrics();
  const scopes = createRequestScopes();
  const logger = createLogger({
    level: config.logLevel,
    stream: options.logStream,
    secrets: [config.sessionSecret, config.sessionSecretPrevious, redisPassword(config.redisUrl)],
  });
  const breakerStates = new Map<string, string>();
  const upstream = createUpstreamStack({
    config,
    upstreamUrls,
    metrics,
    scopes,
    dispatcher: options.dispatcher,
    tracing: options.tracing,
    // Every transition, closing included: an operator reading the log sees when an outage ended.
    onBreakerStateChange: (origin, state) => {
      const seen = breakerStates.get(origin);
      breakerStates.set(origin, state);
      if (seen === undefined && state === 'closed') return;
      if (state === 'closed') logger.info({ origin, state }, 'upstream circuit breaker closed');
      else logger.warn({ origin, state }, `upstream circuit breaker ${state.replace('_', '-')}`);
    },
  });
  const redis = config.redisUrl === undefined ? undefined : await connectRedis(config.redisUrl, logger);
  const services: GatewayServices = {
    config,
    upstream,
    reads: withCoalescing(upstream),
    sessions: createSessionSealer({
      secret: config.sessionSecret,
      previousSecret: config.sessionSecretPrevious,
      ttlSeconds: config.sessionTtlSeconds,
    }),
    revocations: createSessionRevocations({
      redis,
      onStoreError: (error) => {
        logger.warn({ err: error }, "session revocation store failed; this replica's own list answers");
      },
    }),
    loginProtection: createLoginProtection({
      limiter: createLoginLimiter({
        ...config.login,
        redis,
        onBlock: (limit) => {
          metrics.countLoginBlock(limit);
        },
      }),
      links: createAccountLinks({
        redis,
        ttlSeconds: config.login.deviceTtlSeconds,
        onStoreError: (error) => {
          logger.warn({ err: error }, "login link store failed; this replica's own links answer");
        },
      }),
      devices: createDeviceTokens({
        secret: config.sessionSecret,
        previousSecret: config.sessionSecretPrevious,
        ttlSeconds: config.login.deviceTtlSeconds,
      }),
      minFailureMillis: config.login.minFailureMillis,
      onStoreError: (error) => {
        logger.warn({ err: error }, 'login limiter store failed');
      },
    }),
    patternGuard: createPatternGuard({ maxLength: config.maxPatternLength }),
    onLoaderBatch: (loader, size) => {
      metrics.observeLoaderBatch(loader, size);
    },
  };

  // Typed as Fastify's logger interface, so the instance keeps Fastify's default logger type everywhere.
  const fastifyLogger: FastifyBaseLogger = logger;
  const app = Fastify({
    loggerInstance: fastifyLogger,
    bodyLimit: config.maxBodyBytes,
    // One line per request is written by our own hook, with the operation and its upstream cost.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // `x-request-id` is read (and checked) by genReqId: Fastify would take any header value as is.
    requestIdHeader: false,
    genReqId: requestIdFor,
    // `request.ip` comes from x-forwarded-for only when the direct peer is one of these.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ...httpServerOptions(config.http, logger),
  });
  let draining = false;
  // While draining, every response closes its connection: an idle keep-alive socket would hold close() open.
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done();
  });
  const scopeOf = registerRequestLog(app, {
    scopes,
    metrics,
    requestTimeoutMillis: config.requestTimeoutMillis,
    graphqlPath: '/graphql',
    logRequests: config.logRequests,
    currentTraceId: options.tracing ? () => options.tracing?.currentTraceId() : undefined,
  });
  registerErrorHandler(app, {
    maxBodyBytes: config.maxBodyBytes,
    onRefused: (request, code) => {
      scopeOf(request)?.errorCodes.push(code);
    },
  });
  registerGraphqlHeaders(app, '/graphql');
  if (trustedDocuments !== undefined) {
    registerTrustedDocuments(app, {
      path: '/graphql',
      documents: trustedDocuments,
      only: config.trustedDocuments.only,
      onRefused: (request, code) => {
        scopeOf(request)?.errorCodes.push(code);
      },
    });
  }
  const limits = createQueryLimits(config.queryLimits);

  const apollo = new ApolloServer<GraphQLContext>({
    schema: buildSchema({
      federation: config.federation,
      ...(config.objectTypesDir === undefined ? {} : { objectsDir: config.objectTypesDir }),
    }),
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    // Shutdown is ours (src/app/shutdown.ts): Apollo's own handler would re-raise the signal and exit non-zero.
    stopOnTerminationSignals: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    hideSchemaDetailsFromClientErrors: config.production,
    formatError: createErrorFormatter({ production: config.production }),
    plugins: [
      fastifyApolloDrainPlugin(app),
      createRequestLogPlugin<GraphQLContext>(scopes),
      ...(options.tracing ? [options.tracing.apolloPlugin<GraphQLContext>()] : []),
      refuseSubscriptions<GraphQLContext>(),
      createUpstreamCallLimit<GraphQLContext>(config),
      createDeadSessionPlugin({ revocations: services.revocations, scopes }),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      // No field sets cache hints, and the plugin wraps every resolver: off.
      ApolloServerPluginCacheControlDisabled(),
      ...(config.production ? [ApolloServerPluginDisableSuggestions()] : []),
      config.landingPage
        ? linkGraphiqlFromLandingPage(
            ApolloServerPluginLandingPageLocalDefault({
              embed: { endpointIsEditable: false, runTelemetry: false },
              document: EXAMPLE_DOCUMENT,
              headers: EXAMPLE_HEADERS,
              includeCookies: false,
            }),
          )
        : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await apollo.start();

  // Before the routes: CORS answers preflights in an onRequest hook.
  await registerCors(app, config.corsOrigins);
  await app.register(fastifyApollo(apollo), {
    path: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    context: (request) => createContext(services, request.headers.authorization, request.id, request.ip),
  });

  // The offline explorer follows the landing page setting (off in production unless LANDING_PAGE=true).
  if (config.landingPage) {
    registerGraphiql(app, { document: EXAMPLE_DOCUMENT, headers: EXAMPLE_HEADERS });
    registerExplorerRedirects(app, { graphiql: true });
  }

  const upstreamReachable = createReadinessProbe(upstreamUrls.studioUrl);
  app.get('/healthz', () => ({ status: 'ok' }));
  // A sidecar's readiness is its own: an upstream outage it cannot fix must not take the front-end beside it
  // out of the Service (answers there are coded UPSTREAM_UNAVAILABLE). READINESS_REQUIRES_UPSTREAM=true
  // makes the upstream gate readiness, for deployments where another replica could do better.
  app.get('/readyz', async (_request, reply) => {
    const breakers = upstream.breakerStates();
    const reachable = await upstreamReachable();
    const upstreamStatus = upstream.isFailingFast() ? 'circuit open' : reachable ? 'ok' : 'unreachable';
    const status = draining
      ? 'draining'
      : config.readinessRequiresUpstream && upstreamStatus !== 'ok'
        ? `upstream ${upstreamStatus}`
        : 'ready';
    return reply
      .code(status === 'ready' ? 200 : 503)
      .send({ status, upstream: { status: upstreamStatus, breakers } });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );

  return {
    app,
    services,
    metrics,
    upstream,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : config.port;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    },
    startDraining() {
      draining = true;
    },
    async close() {
      draining = true;
      await app.close();
      await upstream.close();
      await redis?.quit().catch(() => undefined);
    },
  };
}
