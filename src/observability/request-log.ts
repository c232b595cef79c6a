/**
 * The HTTP side of observability: every request gets an id (the caller's `x-request-id` when it is a sane
 * token, else a fresh UUID) returned in the `x-request-id` response header, a {@link RequestScope} that the
 * layers below report into, and exactly one log line when its response is sent: operation name and type,
 * duration, upstream calls, outcome. GraphQL requests log at `info` and feed the operation metrics; probes
 * and other routes log at `debug`, so a kubelet probing every few seconds does not flood the logs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayMetrics } from './metrics.ts';
import { redactUrl } from './redact.ts';
import { newRequestScope, type RequestScope, type RequestScopes } from './request-scope.ts';

/** Options of {@link registerRequestLog}. */
export interface RequestLogOptions {
  scopes: RequestScopes;
  metrics: GatewayMetrics;
  /** `REQUEST_TIMEOUT_MS`: the deadline every request's scope carries. */
  requestTimeoutMillis: number;
  /** The GraphQL route (`/graphql`). */
  graphqlPath: string;
  /** When tracing is on: the trace id of the request being served, for its log line. */
  currentTraceId?: (() => string | undefined) | undefined;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the caller's `x-request-id` if it is a short, log-safe token; otherwise a UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Adds the hooks; register before the routes. Answers a lookup of a request's scope (for error handlers,
 * which run outside the request's async context).
 */
export function registerRequestLog(
  app: FastifyInstance,
  options: RequestLogOptions,
): (request: FastifyRequest) => RequestScope | undefined {
  const { scopes, metrics } = options;
  const scopeOf = new WeakMap<FastifyRequest, RequestScope>();

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    const scope = newRequestScope(request.id, options.requestTimeoutMillis);
    // Read here, where the HTTP instrumentation's server span is the active one.
    if (options.currentTraceId) scope.traceId = options.currentTraceId();
    scopeOf.set(request, scope);
    scopes.run(scope, done);
  });

  // The body arrives through socket events, outside the scope: enter it again for the handler.
  app.addHook('preHandler', (request, _reply, done) => {
    const scope = scopeOf.get(request);
    if (scope === undefined) {
      done();
      return;
    }
    scopes.run(scope, done);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const scope = scopeOf.get(request);
    if (scope === undefined) {
      done();
      return;
    }
    const durationMillis = performance.now() - scope.startedAt;
    const status = reply.statusCode;
    const outcome = scope.errorCodes[0] ?? (status >= 400 ? `HTTP_${status}` : 'ok');
    const graphql = request.routeOptions.url === options.graphqlPath && request.method !== 'OPTIONS';
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status,
      operation: scope.operationName,
      operationType: scope.operationType,
      durationMs: Math.round(durationMillis * 10) / 10,
      upstreamCalls: scope.upstreamCalls,
      upstreamMs: Math.round(scope.upstreamMillis * 10) / 10,
      outcome,
      ...(scope.errorCodes.length > 0 ? { errors: scope.errorCodes } : {}),
      ...(scope.traceId === undefined ? {} : { traceId: scope.traceId }),
    };
    if (graphql) {
      metrics.observeOperation({
        name: scope.operationName,
        type: scope.operationType ?? 'unknown',
        outcome,
        seconds: durationMillis / 1000,
      });
      request.log.info(line, 'graphql request');
    } else {
      request.log.debug(line, 'http request');
    }
    done();
  });

  return (request) => scopeOf.get(request);
}
