/**
 * Builds the gateway: the upstream client, the Apollo Server, and the Fastify listener with `/graphql`,
 * `/healthz`, `/readyz` and `/metrics`.
 */
import { randomUUID } from 'node:crypto';
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
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import type { GatewayConfig } from './config.ts';
import { createContext, type GatewayServices, type GraphQLContext } from './context.ts';
import { createReadinessProbe } from './health.ts';
import { registerCors } from './http/cors.ts';
import { registerGraphiql } from './http/graphiql.ts';
import { linkGraphiqlFromLandingPage } from './http/graphiql-link.ts';
import { EXAMPLE_DOCUMENT, EXAMPLE_HEADERS } from './landing-page.ts';
import { createErrorFormatter } from './resolvers/errors.ts';
import { buildSchema } from './schema.ts';
import { createSessionSealer } from './session.ts';
import { createUpstreamClient } from './upstream/client.ts';
import { withCoalescing } from './upstream/coalesce.ts';

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
}

/** A built gateway; `listen` starts serving. */
export interface Gateway {
  app: FastifyInstance;
  services: GatewayServices;
  /** Listens on `config.host:config.port` and answers the base URL (`http://host:port`). */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish, closes upstream pools. */
  close(): Promise<void>;
}

/** Builds the gateway (Apollo started, routes registered) without listening. */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { config, upstreamUrls } = options;
  const upstream = createUpstreamClient({
    ...upstreamUrls,
    pageStartMode: config.pageStartMode,
    authErrorPattern: config.authErrorPattern,
    connectTimeoutMillis: config.upstreamConnectTimeoutMillis,
    headersTimeoutMillis: config.upstreamHeadersTimeoutMillis,
    bodyTimeoutMillis: config.upstreamBodyTimeoutMillis,
    callTimeoutMillis: config.upstreamCallTimeoutMillis,
    connectionsPerOrigin: config.upstreamConnections,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const services: GatewayServices = {
    config,
    upstream,
    reads: withCoalescing(upstream),
    sessions: createSessionSealer({ secret: config.sessionSecret, ttlSeconds: config.sessionTtlSeconds }),
  };

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: 100_000,
    // One line per request is written by our own hook, with the operation and its upstream cost.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  });

  const apollo = new ApolloServer<GraphQLContext>({
    schema: buildSchema(),
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: config.production,
    formatError: createErrorFormatter({ production: config.production }),
    plugins: [
      fastifyApolloDrainPlugin(app),
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
    context: (request) => createContext(services, request.headers.authorization, request.id),
  });

  // The offline explorer follows the landing page setting (off in production unless LANDING_PAGE=true).
  if (config.landingPage) registerGraphiql(app, { document: EXAMPLE_DOCUMENT, headers: EXAMPLE_HEADERS });

  const ready = createReadinessProbe(upstreamUrls.studioUrl);
  let draining = false;
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const upstreamOk = !draining && (await ready());
    return reply
      .code(upstreamOk ? 200 : 503)
      .send({ status: upstreamOk ? 'ready' : draining ? 'draining' : 'upstream unreachable' });
  });
  app.get('/metrics', (_request, reply) =>
    reply
      .type('text/plain; version=0.0.4')
      .send(
        `# HELP process_uptime_seconds Uptime of the gateway.\nprocess_uptime_seconds ${process.uptime()}\n`,
      ),
  );

  return {
    app,
    services,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : config.port;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    },
    async close() {
      draining = true;
      await app.close();
      await upstream.close();
    },
  };
}
