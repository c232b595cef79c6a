/**
 * What the gateway knows about the request being served, reachable from anywhere below it (the upstream
 * client's call listener, the resilience guard's deadline) through `AsyncLocalStorage`, so that those layers
 * stay free of any web framework and need no request argument.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestTrace } from './tracing/tracing.ts';
import type { RequestTenant } from './request-tenant.ts';

/** One request's record; filled in as the request goes, logged once at its end. */
export interface RequestScope {
  requestId: string;
  /** `performance.now()` at arrival. */
  startedAt: number;
  /** `performance.now()` after which upstream calls are cut (`REQUEST_TIMEOUT_MS`). */
  deadlineAt: number;
  upstreamCalls: number;
  /** Upstream attempts this request asked for, counted before sending (the call budget). */
  callsStarted: number;
  /** Sum of the upstream calls' durations (they may overlap). */
  upstreamMillis: number;
  operationName: string | undefined;
  operationType: string | undefined;
  /** `extensions.code` of every error in the response, in order. */
  errorCodes: string[];
  /** `extensions.blame` of the errors that say it (`caller`, `upstream_refusal`, `upstream_health`, `gateway`). */
  errorBlames: string[];
  /** Whose request it is: the session's application and organization (none without a session). */
  tenant?: RequestTenant | undefined;
  /** The request's trace (its server span), when tracing is on and the request is to the GraphQL route. */
  trace?: RequestTrace | undefined;
  /** A login this request failed (refused, blocked or past its share), for its line and the summary. */
  failedLogin?: FailedLoginRecord | undefined;
  /** The login limiter's counters whose block this request's failed login started (`user_ip`, `ip`, …). */
  loginBlocks?: string[] | undefined;
}

/** A failed login as the log keeps it: the client's network (never its full IPv6 address), never a name. */
export interface FailedLoginRecord {
  /** The address by its network, as `src/client-address/client-network.ts` computes it (IPv6 by its /64). */
  clientNetwork: string;
  /** `rejected`, `blocked` or `login_share` (`src/auth/login-protection.ts`). */
  reason: string;
  /** The `retryAfter` answered; 0 for none. */
  retryAfterSeconds: number;
}

/** See {@link createRequestScopes}. */
export interface RequestScopes {
  /** Runs `fn` (and everything it starts) inside `scope`. */
  run<T>(scope: RequestScope, fn: () => T): T;
  /** The scope of the request being served, if any. */
  current(): RequestScope | undefined;
  /** Milliseconds left before the current request's deadline, or `undefined` outside a request. */
  remainingMillis(): number | undefined;
}

/** A fresh scope for a request arriving now. */
export function newRequestScope(requestId: string, timeoutMillis: number): RequestScope {
  const startedAt = performance.now();
  return {
    requestId,
    startedAt,
    deadlineAt: startedAt + timeoutMillis,
    upstreamCalls: 0,
    callsStarted: 0,
    upstreamMillis: 0,
    operationName: undefined,
    operationType: undefined,
    errorCodes: [],
    errorBlames: [],
  };
}

/** Creates the storage; one per gateway. */
export function createRequestScopes(): RequestScopes {
  const storage = new AsyncLocalStorage<RequestScope>();
  return {
    run: (scope, fn) => storage.run(scope, fn),
    current: () => storage.getStore(),
    remainingMillis() {
      const scope = storage.getStore();
      return scope === undefined ? undefined : scope.deadlineAt - performance.now();
    },
  };
}
