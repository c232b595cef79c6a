/**
 * Assembly step: the `/graphql` route as one plugin (CORS first, then Apollo with a per-request context),
 * the offline explorer beside it when the landing page is on, and the example operations both explorers
 * (Apollo Sandbox, GraphiQL) open with in development.
 */
import type { ApolloServer } from '@apollo/server';
import fastifyApollo from '@as-integrations/fastify';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createContext, type GatewayServices, type GraphQLContext } from '../graphql/context.ts';
import { registerCors } from '../http/cors.ts';
import { canonicalAddress } from '../client-address/client-address.ts';
import { registerGraphiql } from '../http/graphiql.ts';
import { admitToCpuShare, cpuCallerOfRequest } from '../http/capacity/cpu-admission.ts';
import { JSON_CONTENT_TYPE } from '../errors/http-error.ts';

/** A login, then a page of loan types: run the first, paste its token in the `Authorization` header. */
export const EXAMPLE_DOCUMENT = `# 1. Run "Login", copy data.login.token.
# 2. Set the Authorization header below to: Bearer <token>
# 3. Run "LoanTypes".
# Offline? The gateway serves GraphiQL too, with no CDN: /graphiql
mutation Login {
  login(username: "demo", password: "demo-password") {
    token
    expiresAt
    user { id username }
  }
}

query LoanTypes($first: Int = 5, $after: String) {
  objects(objectName: "com.example.LoanType", first: $first, after: $after) {
    totalCount
    nodes { id data }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** Headers pre-filled in Sandbox. */
export const EXAMPLE_HEADERS = { Authorization: 'Bearer <paste data.login.token here>' };

/** What {@link graphqlRoute} needs; Apollo must be started. */
export interface GraphqlRouteOptions {
  config: GatewayConfig;
  apollo: ApolloServer<GraphQLContext>;
  services: GatewayServices;
  path: string;
}

const route: FastifyPluginAsync<GraphqlRouteOptions> = async (app, options) => {
  const { config, services } = options;
  // Before the routes: CORS answers preflights in an onRequest hook.
  await registerCors(app, config.corsOrigins);
  // One spelling per client address before it keys anything (login counters and shares). The context is
  // made before the handler, so that the request can wait for its caller's share of the gateway's work
  // (or be refused at the HTTP edge) before Apollo parses, validates or runs anything.
  const contexts = new WeakMap<FastifyRequest, GraphQLContext>();
  const contextOf = (request: FastifyRequest) =>
    createContext(services, request.headers.authorization, request.id, canonicalAddress(request.ip));
  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.url !== options.path || request.method === 'OPTIONS') return;
    const context = await contextOf(request);
    contexts.set(request, context);
    const caller = await cpuCallerOfRequest(services.cpuShare, context, request.body, (token) =>
      services.loginProtection.deviceAccountOf(token),
    );
    const admitted = admitToCpuShare(services.cpuShare, caller, reply.raw);
    const refusal = admitted instanceof Promise ? await admitted : admitted;
    if (refusal === undefined) return;
    // The refusal's code and blame reach the request line and gateway_graphql_operations_total, as the
    // other refusals before GraphQL do.
    request.requestScope?.errorCodes.push(refusal.code);
    const { blame } = refusal.body.errors[0].extensions;
    request.requestScope?.errorBlames.push(typeof blame === 'string' ? blame : 'caller');
    await reply
      .code(refusal.status)
      .header('retry-after', String(refusal.retryAfterSeconds))
      .type(JSON_CONTENT_TYPE)
      .send(refusal.body);
  });
  await app.register(fastifyApollo(options.apollo), {
    path: options.path,
    method: ['GET', 'POST', 'OPTIONS'],
    context: (request) => {
      const context = contexts.get(request);
      return context === undefined ? contextOf(request) : Promise.resolve(context);
    },
  });
  // The offline explorer follows the landing page setting (off in production unless LANDING_PAGE=true).
  if (config.landingPage) registerGraphiql(app, { document: EXAMPLE_DOCUMENT, headers: EXAMPLE_HEADERS });
};

/** The plugin; on the gateway's own instance (no encapsulation: CORS's hook covers every route). */
export const graphqlRoute = fastifyPlugin(route, { name: 'graphql-route', fastify: '5.x' });
