/**
 * The one error type the upstream client throws. The GraphQL layer maps its `kind` to a public code in
 * exactly one place (`src/resolvers/errors.ts`); nothing else about a failure leaves the gateway.
 */

/** What went wrong, from the gateway's point of view. */
export type UpstreamErrorKind =
  /** The upstream answered `status: error` (its `message` and `error_code` are kept). */
  | 'service'
  /** The upstream rejected the credentials or the token (bad login, `SAVE_ERR_401`, auth-like message). */
  | 'unauthenticated'
  /** The upstream said the addressed object does not exist (update of an unknown id). */
  | 'not_found'
  /** A deadline passed: connect, headers, body or the whole call. */
  | 'timeout'
  /** Refused, reset, non-2xx. */
  | 'unavailable'
  /** The body could not be decoded: not JSONP/JSON, wrong callback, wrong shape, too large. */
  | 'bad_response'
  /** Not sent: the origin's circuit breaker is open after repeated failures (`resilience.ts`). */
  | 'circuit_open'
  /** Not sent: too many upstream calls already in flight and waiting (the bulkhead, `resilience.ts`). */
  | 'overloaded';

/** Options of {@link UpstreamError}. */
export interface UpstreamErrorOptions {
  /** The upstream operation that failed (`getAll`, `save`, …). */
  operation: string;
  /** The upstream's own `message`, for `service`/`unauthenticated`/`not_found`. Never holds a secret. */
  upstreamMessage?: string | undefined;
  /** The upstream's `error_code` (save documents `SAVE_ERR_401`). */
  upstreamErrorCode?: string | undefined;
  /** HTTP status when the failure was a non-2xx answer. */
  httpStatus?: number | undefined;
  /** The underlying error, for logs only. Must not carry a URL with credentials. */
  cause?: unknown;
}

/**
 * A failed upstream call. Its `message` is built from the kind and the operation only, so it can never
 * contain a URL, a token or a password.
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  readonly operation: string;
  readonly upstreamMessage: string | undefined;
  readonly upstreamErrorCode: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(kind: UpstreamErrorKind, detail: string, options: UpstreamErrorOptions) {
    super(`upstream ${options.operation}: ${detail}`, { cause: options.cause });
    this.kind = kind;
    this.operation = options.operation;
    this.upstreamMessage = options.upstreamMessage;
    this.upstreamErrorCode = options.upstreamErrorCode;
    this.httpStatus = options.httpStatus;
  }

  /** Reads may be retried after these kinds; writes never are. */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'unavailable';
  }
}

/** Type guard for {@link UpstreamError}. */
export function isUpstreamError(value: unknown): value is UpstreamError {
  return value instanceof UpstreamError;
}
