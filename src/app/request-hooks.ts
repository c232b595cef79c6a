/**
 * Assembly step: what runs around every request before GraphQL does, as one plugin: the request log and its
 * scope, the HTTP error answers, the request-body budget, the response headers (`/graphql`'s, and
 * `Connection: close` while draining), the document size limits, and the trusted-documents check when
 * manifests are set. Also the draining switch that SIGTERM flips (`shutdown.ts`) and readiness reads.
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { registerBodyBudget } from '../http/capacity/body-budget.ts';
import { documentLimitsCheck } from '../http/document-limits-hook.ts';
import { blameOfCode } from '../errors/blame.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { registerExactNumbers } from '../http/exact-numbers-hook.ts';
import { registerResponseHeaders } from '../http/response-headers.ts';
import { registerGraphqlChecks } from '../http/graphql-checks.ts';
import { trustedDocumentsCheck } from '../http/trusted-documents-hook.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import { registerRequestLog } from '../observability/request-log.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
import type { TrustedDocuments } from '../trusted/trusted-documents.ts';

/** Whether the gateway is draining, and the switch. */
export interface Draining {
  /** From {@link Draining.start} on: `/readyz` answers 503 and every response closes its connection. */
  readonly active: boolean;
  start(): void;
}

/** A switch, off. */
export function createDraining(): Draining {
  const state = {
    active: false,
    start() {
      state.active = true;
    },
  };
  return state;
}

/** What {@link requestHooks} needs. */
export interface RequestHooksOptions {
  config: GatewayConfig;
  scopes: RequestScopes;
  metrics: GatewayMetrics;
  graphqlPath: string;
  /** Loaded manifests (`TRUSTED_DOCUMENTS`), if any. */
  trustedDocuments: TrustedDocuments | undefined;
  tracing: GatewayTracing | undefined;
  draining: Draining;
}

const hooks: FastifyPluginCallback<RequestHooksOptions> = (app, options, done) => {
  const { config, tracing, graphqlPath } = options;
  const scopeOf = registerRequestLog(app, {
    scopes: options.scopes,
    metrics: options.metrics,
    requestTimeoutMillis: config.requestTimeoutMillis,
    logRequests: config.logRequests,
    successSample: config.logRequestsSample,
    graphqlPath,
    // The GraphQL route's requests only: probes and /metrics make no spans.
    startTrace: tracing
      ? (request) => (request.routeOptions.url === graphqlPath ? tracing.startRequest(request) : undefined)
      : undefined,
  });
  // Answers refused before GraphQL still reach the request log's `outcome` and level, and the server span.
  // `blame` is the answer's own when it says (a busy answer for the whole gateway is the gateway's), else
  // the table's for the code (`errors/blame.ts`), as `httpErrorBody` blames it.
  const onRefused = (request: FastifyRequest, code: string, blame?: string) => {
    const scope = scopeOf(request);
    scope?.errorCodes.push(code);
    scope?.errorBlames.push(blame ?? blameOfCode(code));
    scope?.trace?.refuse(code);
  };
  registerErrorHandler(app, { maxBodyBytes: config.maxBodyBytes, onRefused });
  const bodies = registerBodyBudget(app, {
    maxInflightBodyBytes: config.connectionLimits.maxInflightBodyBytes,
    maxInflightBodyBytesPerAddress: config.connectionLimits.maxInflightBodyBytesPerAddress,
    maxBodyBytes: config.maxBodyBytes,
    maxConnections: config.connectionLimits.maxConnections,
    onRefused,
  });
  options.metrics.trackCapacity(
    'request_body_bytes',
    () => bodies.inflight(),
    config.connectionLimits.maxInflightBodyBytes,
  );
  registerResponseHeaders(app, { path: graphqlPath, draining: options.draining });
  // One hook for the GraphQL route's checks, in order. The size limits before the trusted documents' check:
  // only the text the caller sent is measured.
  registerGraphqlChecks(app, {
    path: graphqlPath,
    checks: [
      documentLimitsCheck(config.documentLimits),
      registerExactNumbers(app, graphqlPath),
      ...(options.trustedDocuments === undefined
        ? []
        : [
            trustedDocumentsCheck({
              documents: options.trustedDocuments,
              only: config.trustedDocuments.only,
            }),
          ]),
    ],
    onRefused,
  });
  done();
};

/**
 * The plugin; register before the routes. Its hooks are the gateway's own instance's (no encapsulation:
 * they cover every route and the not-found handler).
 */
export const requestHooks = fastifyPlugin(hooks, { name: 'request-hooks', fastify: '5.x' });
