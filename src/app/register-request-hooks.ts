/**
 * Assembly step: what runs around every request before GraphQL does: the request log and its scope, the
 * HTTP error answers, the request-body budget, the `/graphql` headers, the document size limits, and the trusted-documents check when
 * manifests are set.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { registerBodyBudget } from '../http/capacity/body-budget.ts';
import { registerDocumentLimits } from '../http/document-limits-hook.ts';
import { blameOfCode } from '../errors/blame.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { registerExactNumbers } from '../http/exact-numbers-hook.ts';
import { registerGraphqlHeaders } from '../http/graphql-headers.ts';
import { registerTrustedDocuments } from '../http/trusted-documents-hook.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import { registerRequestLog } from '../observability/request-log.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import type { GatewayTracing } from '../observability/tracing/tracing.ts';
import type { TrustedDocuments } from '../trusted/trusted-documents.ts';

/** What {@link registerRequestHooks} needs. */
export interface RequestHooksOptions {
  config: GatewayConfig;
  scopes: RequestScopes;
  metrics: GatewayMetrics;
  graphqlPath: string;
  /** Loaded manifests (`TRUSTED_DOCUMENTS`), if any. */
  trustedDocuments: TrustedDocuments | undefined;
  tracing: GatewayTracing | undefined;
}

/** Adds the hooks; register before the routes. */
export function registerRequestHooks(app: FastifyInstance, options: RequestHooksOptions): void {
  const { config, tracing, graphqlPath } = options;
  const scopeOf = registerRequestLog(app, {
    scopes: options.scopes,
    metrics: options.metrics,
    requestTimeoutMillis: config.requestTimeoutMillis,
    logRequests: config.logRequests,
    graphqlPath,
    currentTraceContext: tracing ? () => tracing.currentTraceContext() : undefined,
  });
  // Answers refused before GraphQL still reach the request log's `outcome` and level, and the server span.
  // `blame` is the answer's own when it says (a busy answer for the whole gateway is the gateway's), else
  // the table's for the code (`errors/blame.ts`), as `httpErrorBody` blames it.
  const onRefused = (request: FastifyRequest, code: string, blame?: string) => {
    const scope = scopeOf(request);
    scope?.errorCodes.push(code);
    scope?.errorBlames.push(blame ?? blameOfCode(code));
    tracing?.recordRefusal(code);
  };
  registerErrorHandler(app, { maxBodyBytes: config.maxBodyBytes, onRefused });
  registerBodyBudget(app, {
    maxInflightBodyBytes: config.connectionLimits.maxInflightBodyBytes,
    maxInflightBodyBytesPerAddress: config.connectionLimits.maxInflightBodyBytesPerAddress,
    maxBodyBytes: config.maxBodyBytes,
    maxConnections: config.connectionLimits.maxConnections,
    onRefused,
  });
  registerGraphqlHeaders(app, graphqlPath);
  // Before the trusted-documents hook: only the text the caller sent is measured.
  registerDocumentLimits(app, {
    path: graphqlPath,
    maxBytes: config.documentLimits.maxBytes,
    maxCommentBytes: config.documentLimits.maxCommentBytes,
    onRefused,
  });
  registerExactNumbers(app, { path: graphqlPath, onRefused });
  if (options.trustedDocuments !== undefined) {
    registerTrustedDocuments(app, {
      path: graphqlPath,
      documents: options.trustedDocuments,
      only: config.trustedDocuments.only,
      onRefused,
    });
  }
}
