/**
 * The HTTP side of observability, as one lean request scope: every request gets an id (the caller's
 * `x-request-id` when it is a sane token, else a fresh UUID) returned in the `x-request-id` response header,
 * a {@link RequestScope} that the layers below report into, and at most one log line when its response is
 * sent: operation name and type, duration, upstream calls, outcome and, when tracing is on, the server span's
 * `trace_id`, `span_id` and `trace_flags` (the names of OpenTelemetry's log data model, which collectors and
 * log pipelines join on). GraphQL requests log at `info` and feed the operation metrics; probes and other
 * routes log at `debug`, so a kubelet probing every few seconds does not flood the logs. A failure raises the
 * line by its blame ({@link levelOf}): the caller's mistakes stay at that level, the upstream's refusals and
 * ill health are `warn`, the gateway's own failures `error`, so an alert on `warn`+ never fires for a typo.
 *
 * With `LOG_REQUESTS=errors` (production's default) only failed and slow requests are logged: the line was
 * about a seventh of a small request's CPU, and a healthy request's line tells an operator nothing
 * the metrics do not. `LOG_REQUESTS_SAMPLE` logs a share of the successful ones anyway, evenly spread
 * (every hundredth with `0.01`), so what normal traffic looks like is in the logs too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { levels } from 'pino';
import type { GatewayMetrics } from './metrics.ts';
import type { RequestTrace } from './tracing/tracing.ts';
import { withTraceFields } from './logger.ts';
import { redactUrl } from './redact.ts';
import {
  newRequestScope,
  type FailedLoginRecord,
  type RequestScope,
  type RequestScopes,
} from './request-scope.ts';
import { createPeriodSummary } from './period-summary.ts';
import { blameOfAnswer, LOG_LEVEL_OF_BLAME } from '../errors/blame.ts';
import { clientNetwork } from '../client-address/client-network.ts';

/** `LOG_REQUESTS`: every request, or only those that failed or were slow. */
export type LogRequests = 'all' | 'errors';

/** A request at least this slow is logged even with `LOG_REQUESTS=errors`. */
export const SLOW_REQUEST_MILLIS = 1000;

/** Options of {@link registerRequestLog}. */
export interface RequestLogOptions {
  scopes: RequestScopes;
  metrics: GatewayMetrics;
  /** `REQUEST_TIMEOUT_MS`: the deadline every request's scope carries. */
  requestTimeoutMillis: number;
  /** The GraphQL route (`/graphql`). */
  graphqlPath: string;
  /** `LOG_REQUESTS`: every request, or only failed and slow ones. */
  logRequests: LogRequests;
  /** `LOG_REQUESTS_SAMPLE`: with `logRequests: 'errors'`, the share of successful requests logged anyway. */
  successSample?: number | undefined;
  /** With `logRequests: 'errors'`, requests at least this slow are logged too. Default {@link SLOW_REQUEST_MILLIS}. */
  slowRequestMillis?: number | undefined;
  /** When tracing is on: starts the request's trace (its server span), ended with the response. */
  startTrace?: ((request: FastifyRequest) => RequestTrace | undefined) | undefined;
  /** The period over which failed logins are summed up per address (`period-summary.ts`). Default a minute. */
  failedLoginPeriodMillis?: number | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's scope (`registerRequestLog`); `null` only before its first hook ran. */
    requestScope: RequestScope | null;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the caller's `x-request-id` if it is a short, log-safe token; otherwise a UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** The levels a request line is written at. */
type LineLevel = 'error' | 'warn' | 'info' | 'debug';

/** The level of a failure by its blame (`errors/blame.ts`); the caller's own stay at the route's level. */
const LEVEL_OF_BLAME: Readonly<Record<string, LineLevel | undefined>> = LOG_LEVEL_OF_BLAME;

/**
 * The level of a request's line: the worst of its errors' blames (`gateway` → `error`, the upstream's →
 * `warn`), a GraphQL answer of 5xx that no error explains → `error`, else `base` (`info` for GraphQL,
 * `debug` for probes and other routes).
 */
export function levelOf(blames: readonly string[], status: number, base: 'info' | 'debug'): LineLevel {
  let level: LineLevel = base;
  for (const blame of blames) {
    const raised = LEVEL_OF_BLAME[blame];
    if (raised === 'error') return 'error';
    if (raised === 'warn') level = 'warn';
  }
  if (base === 'info' && blames.length === 0 && status >= 500) return 'error';
  return level;
}

/** The metrics' `blame` of a request: `none` when it succeeded, else its answer's (`errors/blame.ts`). */
function blameOf(outcome: string, blames: readonly string[], status: number): string {
  return outcome === 'ok' ? 'none' : blameOfAnswer(blames, status);
}

/**
 * Answers `true` for one call in `1 / share` (rounded: `0.25` every fourth, `0.01` every hundredth), evenly
 * spread rather than at random: a test and an operator can count on it, and a burst is sampled as evenly
 * as a quiet hour.
 */
function evenSample(share: number): () => boolean {
  if (share <= 0) return () => false;
  const every = Math.max(1, Math.round(1 / share));
  let calls = 0;
  return () => {
    calls = (calls + 1) % every;
    return calls === 0;
  };
}

/**
 * The line of a login block, at `warn`: once per block, by the failed login that started it (the refused
 * logins while it lasts are failed logins, summed up per network), with the counters blocked and for how
 * long; never the name tried.
 */
function logBlock(request: FastifyRequest, failedLogin: FailedLoginRecord, limits: string[]): void {
  request.log.warn(
    {
      clientNetwork: failedLogin.clientNetwork,
      limits,
      blockSeconds: failedLogin.retryAfterSeconds,
    },
    'login block started',
  );
}

/** Whether `log` writes lines at `level` (`silent` and unknown levels write none). */
function writes(log: FastifyBaseLogger, level: LineLevel): boolean {
  const threshold = levels.values[log.level];
  return threshold !== undefined && threshold <= (levels.values[level] ?? 0);
}

/** One decimal place, as the log line shows durations. */
function tenths(millis: number): number {
  return Math.round(millis * 10) / 10;
}

/**
 * Adds the hooks; register before the routes. Answers a lookup of a request's scope (for error handlers,
 * which run outside the request's async context).
 */
export function registerRequestLog(
  app: FastifyInstance,
  options: RequestLogOptions,
): (request: FastifyRequest) => RequestScope | undefined {
  const { scopes, metrics, graphqlPath, requestTimeoutMillis, startTrace } = options;
  const logAll = options.logRequests === 'all';
  const slowMillis = options.slowRequestMillis ?? SLOW_REQUEST_MILLIS;
  const sampled = evenSample(options.successSample ?? 0);
  const failedLogins = createPeriodSummary({
    periodMillis: options.failedLoginPeriodMillis,
    write: ({ key, ...summary }) => {
      app.log.info({ clientNetwork: key, ...summary }, 'failed logins from one network');
    },
  });
  // An outage fails every request alike: the first of each operation a period is logged, the rest summed up.
  const outageFailures = createPeriodSummary({
    periodMillis: options.failedLoginPeriodMillis,
    write: ({ key, reasons, ...summary }) => {
      app.log.warn(
        { operation: key, ...summary, outcomes: reasons },
        "graphql requests failed by the upstream's ill health",
      );
    },
  });
  app.addHook('onClose', (_instance, done) => {
    failedLogins.close();
    outageFailures.close();
    done();
  });
  // A decorated property (not a WeakMap): every request object keeps one shape, and no ephemeron for the GC.
  app.decorateRequest('requestScope', null);

  // No async scope entered here: nothing before the handler reads it, and the body arrives through socket
  // events outside it anyway. The handler enters it (preHandler below).
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    const scope = newRequestScope(request.id, requestTimeoutMillis);
    if (startTrace !== undefined) {
      scope.trace = startTrace(request);
      // Every line of the request names its server span, the request line and Fastify's own included.
      if (scope.trace !== undefined) {
        request.log = withTraceFields(request.log, scope.trace.ids);
        reply.log = request.log;
      }
    }
    request.requestScope = scope;
    done();
  });

  app.addHook('preHandler', (request, _reply, done) => {
    const scope = request.requestScope;
    if (scope === null) done();
    else scopes.run(scope, done);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const scope = request.requestScope;
    if (scope === null) {
      done();
      return;
    }
    const durationMillis = performance.now() - scope.startedAt;
    const status = reply.statusCode;
    scope.trace?.end(status);
    const outcome = scope.errorCodes[0] ?? (status >= 400 ? `HTTP_${status}` : 'ok');
    const graphql = request.routeOptions.url === graphqlPath && request.method !== 'OPTIONS';
    if (graphql) {
      metrics.observeOperation({
        name: scope.operationName,
        type: scope.operationType ?? 'unknown',
        outcome,
        blame: blameOf(outcome, scope.errorBlames, status),
        seconds: durationMillis / 1000,
        organization: scope.tenant?.organization ?? undefined,
      });
    }
    // A failed login's line is written for the first of its network in a period, a request failed by the
    // upstream's ill health for the first of its operation; the rest are summed up.
    const failedLogin = scope.failedLogin;
    const outage = outcome !== 'ok' && blameOf(outcome, scope.errorBlames, status) === 'upstream_health';
    const summed =
      failedLogin !== undefined
        ? !failedLogins.admit(failedLogin.clientNetwork, failedLogin.reason)
        : outage && !outageFailures.admit(scope.operationName ?? 'anonymous', outcome);
    // A block is logged once, by the failure that started it, whatever the summary does with the failure.
    if (failedLogin !== undefined && scope.loginBlocks !== undefined)
      logBlock(request, failedLogin, scope.loginBlocks);
    const wanted = !summed && (logAll || outcome !== 'ok' || durationMillis >= slowMillis || sampled());
    const log = request.log;
    const level = levelOf(scope.errorBlames, status, graphql ? 'info' : 'debug');
    // The line is built only when it will be written (a probe's debug line usually is not).
    if (wanted && writes(log, level)) {
      const line: Record<string, unknown> = {
        method: request.method,
        url: redactUrl(request.url),
        status,
        operation: scope.operationName,
        operationType: scope.operationType,
        durationMs: tenths(durationMillis),
        upstreamCalls: scope.upstreamCalls,
        upstreamMs: tenths(scope.upstreamMillis),
        outcome,
      };
      if (scope.tenant !== undefined) {
        line.application = scope.tenant.application;
        if (scope.tenant.organization !== null) line.organization = scope.tenant.organization;
      }
      // The client by its network (an IPv6 address by its /64), as every share counts it.
      line.clientNetwork = failedLogin?.clientNetwork ?? clientNetwork(request.ip);
      if (scope.errorCodes.length > 0) line.errors = scope.errorCodes;
      if (failedLogin !== undefined) {
        line.loginFailure = failedLogin.reason;
        if (failedLogin.retryAfterSeconds > 0) line.retryAfter = failedLogin.retryAfterSeconds;
      }
      log[level](line, graphql ? 'graphql request' : 'http request');
    }
    done();
  });

  return (request) => request.requestScope ?? undefined;
}
