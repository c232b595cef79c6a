/** Stand-in (feature `log`): no request hooks, no scope, no log line; the request id as the real one. */
import type * as Real from '../../../src/observability/request-log.ts';

export * from '../../../src/observability/request-log.ts';

/** Adds nothing; no request has a scope. */
export const registerRequestLog: typeof Real.registerRequestLog = () => () => undefined;
