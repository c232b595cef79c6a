/**
 * The one error type the upstream layer throws, and the one model of blame: every failure is the caller's,
 * the upstream's refusal, the upstream's ill health, or the gateway's own bug ({@link blameOf}). The
 * breaker and the retry budget count only ill health; the GraphQL layer maps each kind to a public code in
 * exactly one place (`src/errors/graphql-errors.ts`); nothing else about a failure leaves the gateway.
 */

/** What went wrong, from the gateway's point of view. {@link blameOf} says whose fault each kind is. */
export type UpstreamErrorKind =
  // ── the caller's ──────────────────────────────────────────────────────────────────────────────────────
  /** Refused before sending: the upstream cannot take this input (empty id, URL too long, data too deep…). */
  | 'invalid_input'
  /** The upstream refused the input in a way that names the caller's mistake (pattern, object name…). */
  | 'rejected_input'
  /** The upstream says the session's user may not do this (an organization not open to them). */
  | 'forbidden'
  /** The upstream rejected the credentials or the token (bad login, `SAVE_ERR_401`, auth-like message). */
  | 'unauthenticated'
  /** The upstream said the addressed object does not exist (update of an unknown id). */
  | 'not_found'
  /** Not sent: the request already made `MAX_UPSTREAM_CALLS_PER_REQUEST` upstream calls. */
  | 'call_budget'
  /** Not sent: this session already holds its share of the bulkhead and its own queue is full. */
  | 'session_overloaded'
  /** Cut: this user's upstream answers held at once would pass its share of the answer budget. */
  | 'answer_share'
  // ── the upstream's refusal ────────────────────────────────────────────────────────────────────────────
  /** The upstream answered a well-formed `status: error` (its `message` and `error_code` are kept). */
  | 'service'
  // ── the upstream's ill health ─────────────────────────────────────────────────────────────────────────
  /** A deadline passed: connect, headers, body or the whole call. */
  | 'timeout'
  /** Refused, reset, 5xx. */
  | 'unavailable'
  /** The body could not be decoded: not JSONP/JSON, wrong callback, wrong shape, too large. */
  | 'bad_response'
  /** A write was sent but its answer is missing or unreadable: it may or may not have been applied. */
  | 'outcome_unknown'
  /** Not sent: the origin's circuit breaker is open after repeated failures (`resilience.ts`). */
  | 'circuit_open'
  /**
   * Not sent: too many upstream calls already in flight and waiting (the bulkhead, `resilience.ts`); or
   * cut: all answers held at once would pass the answer budget (`answer-budget.ts`).
   */
  | 'overloaded'
  // ── the gateway's own ─────────────────────────────────────────────────────────────────────────────────
  /** The upstream answered HTTP 4xx to a request the gateway built: the gateway should have refused it. */
  | 'request_rejected'
  /** The gateway failed before sending (a bug): never the upstream's fault. */
  | 'internal';

/** Whose fault a failure is. */
export type Blame = 'caller' | 'upstream_refusal' | 'upstream_health' | 'gateway';

const BLAME: Readonly<Record<UpstreamErrorKind, Blame>> = {
  invalid_input: 'caller',
  rejected_input: 'caller',
  forbidden: 'caller',
  unauthenticated: 'caller',
  not_found: 'caller',
  call_budget: 'caller',
  session_overloaded: 'caller',
  answer_share: 'caller',
  service: 'upstream_refusal',
  timeout: 'upstream_health',
  unavailable: 'upstream_health',
  bad_response: 'upstream_health',
  outcome_unknown: 'upstream_health',
  circuit_open: 'upstream_health',
  overloaded: 'upstream_health',
  request_rejected: 'gateway',
  internal: 'gateway',
};

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
  /** For `invalid_input`: the argument or input path the caller should change (`id`, `data.items.3`). */
  argument?: string | undefined;
  /** The underlying error, for logs only. Must not carry a URL with credentials. */
  cause?: unknown;
}

/**
 * A failed upstream call. Its `message` is built from the kind, the operation and text the gateway wrote,
 * so it can never contain a URL, a token or a password. For `invalid_input` the detail is written for the
 * caller: it says what to change.
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  readonly operation: string;
  /** The text after `upstream <operation>: `, as written for the kind. */
  readonly detail: string;
  readonly upstreamMessage: string | undefined;
  readonly upstreamErrorCode: string | undefined;
  readonly httpStatus: number | undefined;
  readonly argument: string | undefined;

  constructor(kind: UpstreamErrorKind, detail: string, options: UpstreamErrorOptions) {
    super(`upstream ${options.operation}: ${detail}`, { cause: options.cause });
    this.kind = kind;
    this.detail = detail;
    this.operation = options.operation;
    this.upstreamMessage = options.upstreamMessage;
    this.upstreamErrorCode = options.upstreamErrorCode;
    this.httpStatus = options.httpStatus;
    this.argument = options.argument;
  }

  /** Whose fault this is. */
  get blame(): Blame {
    return BLAME[this.kind];
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

/** Whose fault `kind` is. */
export function blameOf(kind: UpstreamErrorKind): Blame {
  return BLAME[kind];
}

/**
 * Whether a failure says the upstream is sick, so that it counts against the circuit breaker. Only answers
 * the upstream itself gave (or failed to give) count: a caller's mistake, an upstream's deliberate
 * refusal, the gateway's own bug, and the guard's own fail-fast refusals never do, so no caller can open
 * the breaker for everyone else.
 */
export function countsAgainstUpstream(error: unknown): error is UpstreamError {
  if (!isUpstreamError(error)) return false;
  const { kind } = error;
  // A write whose answer the gateway itself cut (the answer budget) says nothing about the upstream.
  if (kind === 'outcome_unknown') return !isBudgetCut(error.cause);
  return kind === 'timeout' || kind === 'unavailable' || kind === 'bad_response';
}

/** Whether `error` is the gateway's own refusal to hold more answer bytes (`answer-budget.ts`). */
export function isBudgetCut(error: unknown): boolean {
  return isUpstreamError(error) && (error.kind === 'answer_share' || error.kind === 'overloaded');
}

/** `invalid_input` for `operation`: `detail` tells the caller what to change. */
export function invalidInput(operation: string, detail: string, argument?: string): UpstreamError {
  return new UpstreamError('invalid_input', detail, { operation, argument });
}
