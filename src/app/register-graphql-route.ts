/**
 * Assembly step: the `/graphql` route (CORS first, then Apollo with a per-request context), and the offline
 * explorer beside it when the landing page is on.
 */
import type { ApolloServer } from '@apollo/server';
import fastifyApollo from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createContext, type GatewayServices, type GraphQLContext } from '../graphql/context.ts';
import { registerCors } from '../http/cors.ts';
import { registerExplorerRedirects } from '../http/explorer-redirects.ts';
import { registerGraphiql } from '../http/graphiql.ts';
import { EXAMPLE_DOCUMENT, EXAMPLE_HEADERS } from './landing-page.ts';

/** Registers the routes; Apollo must be started. */
export async function registerGraphqlRoute(
  app: FastifyInstance,
  options: {
    config: GatewayConfig;
    apollo: ApolloServer<GraphQLContext>;
    services: GatewayServices;
    path: string;
  },
): Promise<void> {
  const { config, services } = options;
  // Before the routes: CORS answers preflights in an onRequest hook.
  await registerCors(app, config.corsOrigins);
  await app.register(fastifyApollo(options.apollo), {
    path: options.path,
    method: ['GET', 'POST', 'OPTIONS'],
    context: (request) => createContext(services, request.headers.authorization, request.id, request.ip),
  });
  // The offline explorer follows the landing page setting (off in production unless LANDING_PAGE=true).
  if (config.landingPage) {
    registerGraphiql(app, { document: EXAMPLE_DOCUMENT, headers: EXAMPLE_HEADERS });
    registerExplorerRedirects(app, { graphiql: true });
  }
}
