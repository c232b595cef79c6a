/**
 * Assembly step: Apollo Server with the gateway's schema, limits, error formatting and plugins, started.
 * Which of Apollo's defaults are off, and why, is said beside each option.
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
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { createDeadSessionPlugin } from '../auth/dead-session-plugin.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayServices, GraphQLContext } from '../graphql/context.ts';
import { createErrorFormatter } from '../graphql/format-error.ts';
import { buildSchema } from '../graphql/schema.ts';
import { linkGraphiqlFromLandingPage } from '../http/graphiql-link.ts';
import { refuseSubscriptions } from '../http/refuse-subscriptions.ts';
import { createQueryLimits } from '../limits/armor.ts';
import { createUpstreamCallLimit } from '../limits/upstream-call-limit.ts';
import { createRequestLogPlugin } from '../observability/request-log-plugin.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import type { GatewayTracing } from '../observability/tracing.ts';
import { EXAMPLE_DOCUMENT, EXAMPLE_HEADERS } from './landing-page.ts';

/** What {@link createApollo} needs. */
export interface ApolloOptions {
  config: GatewayConfig;
  services: GatewayServices;
  /** The Fastify instance whose close Apollo's drain plugin waits for. */
  app: FastifyInstance;
  scopes: RequestScopes;
  tracing: GatewayTracing | undefined;
}

/** Builds and starts Apollo Server. */
export async function createApollo(options: ApolloOptions): Promise<ApolloServer<GraphQLContext>> {
  const { config } = options;
  const limits = createQueryLimits(config.queryLimits);
  const apollo = new ApolloServer<GraphQLContext>({
    schema: buildSchema({
      federation: config.federation,
      ...(config.objectTypesDir === undefined ? {} : { objectsDir: config.objectTypesDir }),
    }),
    introspection: config.introspection,
    // Off: Apollo's CSRF rule refuses a GET query without a custom header, which urql (GET by default), Relay
    // and Apollo's persisted-query GETs do not send. It protects nothing here: the only credential is a Bearer
    // token a page must add itself, so a cross-site request carries none (docs/design.md, "CSRF"). A mutation
    // over GET is still refused by Apollo (405), and a POST must be JSON to parse. Revisit with any cookie.
    csrfPrevention: false,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    // Shutdown is ours (src/app/shutdown.ts): Apollo's own handler would re-raise the signal and exit non-zero.
    stopOnTerminationSignals: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    hideSchemaDetailsFromClientErrors: config.production,
    formatError: createErrorFormatter({ production: config.production }),
    plugins: [
      fastifyApolloDrainPlugin(options.app),
      createRequestLogPlugin<GraphQLContext>(options.scopes),
      ...(options.tracing ? [options.tracing.apolloPlugin<GraphQLContext>()] : []),
      refuseSubscriptions<GraphQLContext>(),
      createUpstreamCallLimit<GraphQLContext>(config),
      createDeadSessionPlugin({ revocations: options.services.revocations, scopes: options.scopes }),
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
  return apollo;
}
