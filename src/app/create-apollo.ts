/**
 * Assembly step: Apollo Server with the gateway's schema, limits, error formatting and plugins, started.
 * Which of Apollo's defaults are off, and why, is said beside each option.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { createDeadSessionPlugin } from '../auth/dead-session-plugin.ts';
import { createCacheReportPlugin } from '../cache/cache-report-plugin.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayServices, GraphQLContext } from '../graphql/context.ts';
import { createErrorFormatter } from '../errors/format-error.ts';
import { apolloDefaultsOff } from '../graphql/apollo-defaults-off.ts';
import { buildSchema } from './build-schema.ts';
import { createCompiledExecutor } from '../execution/compiled-executor.ts';
import { executorGateway } from '../execution/executor-gateway.ts';
import { linkGraphiqlFromLandingPage } from '../http/graphiql-link.ts';
import { refuseSubscriptions } from '../http/refuse-subscriptions.ts';
import { createQueryLimits } from '../limits/armor.ts';
import { createDocumentStore, createPersistedQueryCache } from '../limits/document-store.ts';
import { exactNumbersRule } from '../limits/exact-numbers-rule.ts';
import { forbiddenKeysRule } from '../limits/forbidden-keys-rule.ts';
import { noIntrospectionRule } from '../limits/no-introspection-rule.ts';
import { createUpstreamCallLimit } from '../limits/upstream-call-limit.ts';
import { createAnswerBytesBudget } from '../limits/answer-size/answer-bytes-budget.ts';
import { createAnswerSizeLimit } from '../limits/answer-size/answer-size-limit.ts';
import { RecordWeights } from '../objects/record-weights.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import { createOperationNamePlugin } from '../observability/operation-name-plugin.ts';
import { createRequestLogPlugin } from '../observability/request-log-plugin.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
// The per-user share of operation names is the account's (no secret in the key).
import { userKeyOf } from '../auth/user-key.ts';
import type { TrustedDocuments } from '../trusted/trusted-documents.ts';
import { EXAMPLE_DOCUMENT, EXAMPLE_HEADERS } from './graphql-route.ts';

/** What {@link createApollo} needs. */
export interface ApolloOptions {
  config: GatewayConfig;
  services: GatewayServices;
  /** The Fastify instance whose close Apollo's drain plugin waits for. */
  app: FastifyInstance;
  scopes: RequestScopes;
  tracing: GatewayTracing | undefined;
  /** Operation names count in the metrics only when vouched for (`operation-name-plugin.ts`). */
  metrics: GatewayMetrics;
  /** Loaded manifests (`TRUSTED_DOCUMENTS`), if any: their operations' names always count. */
  trustedDocuments: TrustedDocuments | undefined;
  /** Told of every `UPSTREAM_DIALECT_MISMATCH` answered (`logDialectMismatches` logs each assumption once). */
  onDialectMismatch?: (mismatch: { assumption: string; setting: string; message: string }) => void;
}

/** Requests without a session share a sixteenth of one user's answer bytes. */
const ANONYMOUS_ANSWER_SHARE_DIVISOR = 16;

/** Builds and starts Apollo Server. */
export async function createApollo(options: ApolloOptions): Promise<ApolloServer<GraphQLContext>> {
  const { config } = options;
  const limits = createQueryLimits(config.queryLimits);
  const { maxInflightAnswerBytes, maxInflightAnswerBytesPerUser } = config.answerLimits;
  const answerBytes = createAnswerBytesBudget({
    totalBytes: maxInflightAnswerBytes,
    perUserBytes: maxInflightAnswerBytesPerUser,
    // Every request without a session together: the smallest share.
    anonymousBytes: Math.floor(maxInflightAnswerBytesPerUser / ANONYMOUS_ANSWER_SHARE_DIVISOR),
  });
  const schema = buildSchema({
    federation: config.federation,
    federationNamePrefix: config.federationNamePrefix,
    relayNode: config.relayNode,
    ...(config.objectTypesDir === undefined ? {} : { objectsDir: config.objectTypesDir }),
  });
  const apollo = new ApolloServer<GraphQLContext>({
    // Apollo takes an executor of its own only from a gateway; its pipeline around execution is the same.
    ...(config.compiledExecution
      ? { gateway: executorGateway(schema, createCompiledExecutor(schema)) }
      : { schema }),
    // Ours decides (`noIntrospectionRule`, naming `INTROSPECTION`); Apollo's rule would name its code option.
    introspection: true,
    // Off: Apollo's CSRF rule refuses a GET query without a custom header, which urql (GET by default), Relay
    // and Apollo's persisted-query GETs do not send. It protects nothing here: the only credential is a Bearer
    // token a page must add itself, so a cross-site request carries none (docs/design.md, "CSRF"). A mutation
    // over GET is still refused by Apollo (405), and a POST must be JSON to parse. Revisit with any cookie.
    csrfPrevention: false,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    // Shutdown is ours (src/app/shutdown.ts): Apollo's own handler would re-raise the signal and exit non-zero.
    stopOnTerminationSignals: false,
    validationRules: [
      ...(config.introspection ? [] : [noIntrospectionRule]),
      ...limits.validationRules,
      exactNumbersRule,
      forbiddenKeysRule,
    ],
    parseOptions: limits.parseOptions,
    // Apollo's defaults size documents by their JSON, not by the source text and tokens they keep.
    documentStore: createDocumentStore(config.documentLimits.cacheBytes),
    persistedQueries: { cache: createPersistedQueryCache(config.documentLimits.cacheBytes) },
    // No `Did you mean …?` while the schema is closed: validation drops them at the source (graphql-js's
    // option, and Apollo's, which adds its suggestion-removing plugin), `formatError` the variables' ones.
    hideSchemaDetailsFromClientErrors: !config.introspection,
    validationOptions: { hideSuggestions: !config.introspection },
    formatError: createErrorFormatter({
      production: config.production,
      hideSuggestions: !config.introspection,
    }),
    plugins: [
      fastifyApolloDrainPlugin(options.app),
      createRequestLogPlugin<GraphQLContext>(options.scopes, options.onDialectMismatch, ({ session }) =>
        session === null
          ? undefined
          : { application: session.applicationCode, organization: session.organizationCode },
      ),
      createOperationNamePlugin<GraphQLContext>({
        admit: (name, source) => {
          options.metrics.admitOperationName(name, source);
        },
        isTrustedDocument: (source) => options.trustedDocuments?.has(source) === true,
        userOf: (context) => (context.session === null ? undefined : userKeyOf(context.session)),
        userOfToken: async (token) => {
          const session = await options.services.sessions.open(token);
          return session === null ? undefined : userKeyOf(session);
        },
      }),
      ...(options.tracing
        ? [options.tracing.apolloPlugin<GraphQLContext>(() => options.scopes.current()?.trace)]
        : []),
      refuseSubscriptions<GraphQLContext>(),
      createUpstreamCallLimit<GraphQLContext>(config),
      createAnswerSizeLimit({
        settings: config,
        budget: answerBytes,
        weights: new RecordWeights(),
        holderOf: (context) => (context.session === null ? undefined : userKeyOf(context.session)),
      }),
      createDeadSessionPlugin({ revocations: options.services.revocations, scopes: options.scopes }),
      ...(options.services.cache === undefined ? [] : [createCacheReportPlugin({ http: config.cache.http })]),
      ...apolloDefaultsOff<GraphQLContext>(),
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
