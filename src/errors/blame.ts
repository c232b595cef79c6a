/**
 * The one table that decides whose fault a failure is, and what follows from it. Every code of the catalogue
 * has a row: its blame (`extensions.blame`), the reasons whose blame differs from the code's, and, for the
 * codes the HTTP edge answers before any execution, the HTTP status. Every upstream failure kind answers one
 * code ({@link UPSTREAM_KIND_CODE}), so its blame is that code's too; the request log's level follows from the
 * blame ({@link LOG_LEVEL_OF_BLAME}). Nothing else in the gateway writes a blame: `formatError`, the HTTP
 * error bodies, `UpstreamError.blame` and the request log all read it here.
 */
import { ErrorCode } from './error-codes.ts';

/** Whose fault a failure is. */
export type Blame = 'caller' | 'upstream_refusal' | 'upstream_health' | 'gateway';

/** Every blame, from the least to the most an operator's concern (`worstBlame` ranks by this order). */
export const BLAMES: readonly Blame[] = ['caller', 'upstream_refusal', 'upstream_health', 'gateway'];

/** The blame of `blames` most an operator's concern (`gateway` first), or `undefined` for none. */
export function worstBlame(blames: readonly string[]): Blame | undefined {
  let worst = -1;
  for (const blame of blames) worst = Math.max(worst, BLAMES.indexOf(blame as Blame));
  return BLAMES[worst];
}

/**
 * The blame of a failed answer: its errors' worst, or for an answer no error explains (a bare HTTP status),
 * the gateway's when it is a 5xx, else the caller's.
 */
export function blameOfAnswer(blames: readonly string[], status: number): Blame {
  return worstBlame(blames) ?? (status >= 500 ? 'gateway' : 'caller');
}

/** One row of {@link ERROR_TABLE}. */
export interface ErrorRule {
  /** The code's blame. */
  blame: Blame;
  /** `extensions.reason` values whose blame is not the code's. */
  reasons?: Readonly<Record<string, Blame>>;
  /** The HTTP status when the HTTP edge answers this code before (or instead of) GraphQL execution. */
  httpStatus?: number;
}

const CALLER: ErrorRule = { blame: 'caller' };
const LIMIT: ErrorRule = { blame: 'caller', httpStatus: 400 };

/** Every code's blame. A code added to the catalogue does not compile until it has a row here. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorRule>> = {
  [ErrorCode.UNAUTHENTICATED]: CALLER,
  [ErrorCode.FORBIDDEN]: CALLER,
  [ErrorCode.BAD_USER_INPUT]: CALLER,
  [ErrorCode.NOT_FOUND]: { blame: 'caller', httpStatus: 404 },
  // Nobody's fault, but only the caller can mend it: its cursor is older than the list it pages through.
  [ErrorCode.STALE_CURSOR]: CALLER,
  [ErrorCode.ACCOUNT_LOCKED]: CALLER,
  // A busy pattern guard is the gateway's own capacity, not the caller's pattern: worth a retry.
  [ErrorCode.TOO_MANY_REQUESTS]: { blame: 'caller', reasons: { pattern_guard_busy: 'gateway' } },
  // An upstream 4xx to a request the gateway built: the gateway should have refused it.
  [ErrorCode.UPSTREAM_ERROR]: { blame: 'upstream_refusal', reasons: { request_rejected: 'gateway' } },
  [ErrorCode.UPSTREAM_UNAVAILABLE]: { blame: 'upstream_health' },
  [ErrorCode.UPSTREAM_OUTCOME_UNKNOWN]: { blame: 'upstream_health' },
  // The upstream is healthy and answers the same way every time; the gateway's settings do not match the
  // dialect it speaks. Its operator fixes it with the setting named in the error, so it is never ill health.
  [ErrorCode.UPSTREAM_DIALECT_MISMATCH]: { blame: 'gateway' },
  // The upstream served another organization's record: its doing, the same every time, not ill health.
  [ErrorCode.UPSTREAM_TENANT_MISMATCH]: { blame: 'upstream_refusal' },
  // The typed schema declares what the upstream's record does not hold: the data's, not the request's.
  [ErrorCode.BAD_UPSTREAM_VALUE]: { blame: 'upstream_refusal' },
  [ErrorCode.INTERNAL_SERVER_ERROR]: { blame: 'gateway', httpStatus: 500 },
  [ErrorCode.MAX_DEPTH_EXCEEDED]: LIMIT,
  [ErrorCode.MAX_ALIASES_EXCEEDED]: LIMIT,
  [ErrorCode.MAX_DIRECTIVES_EXCEEDED]: LIMIT,
  [ErrorCode.MAX_TOKENS_EXCEEDED]: LIMIT,
  [ErrorCode.MAX_COST_EXCEEDED]: LIMIT,
  [ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED]: LIMIT,
  [ErrorCode.MAX_ANSWER_BYTES_EXCEEDED]: LIMIT,
  [ErrorCode.BODY_TOO_LARGE]: { blame: 'caller', httpStatus: 413 },
  [ErrorCode.DOCUMENT_TOO_LARGE]: { blame: 'caller', httpStatus: 413 },
  [ErrorCode.COMMENTS_TOO_LARGE]: LIMIT,
  [ErrorCode.LOGIN_NOT_ALONE]: LIMIT,
  [ErrorCode.MAX_INTROSPECTION_DEPTH_EXCEEDED]: LIMIT,
  [ErrorCode.INTROSPECTION_DISABLED]: { blame: 'caller', httpStatus: 400 },
  [ErrorCode.BAD_REQUEST]: { blame: 'caller', httpStatus: 400 },
  [ErrorCode.METHOD_NOT_ALLOWED]: { blame: 'caller', httpStatus: 405 },
  [ErrorCode.NOT_ACCEPTABLE]: { blame: 'caller', httpStatus: 406 },
  [ErrorCode.REQUEST_TIMEOUT]: { blame: 'caller', httpStatus: 408 },
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: { blame: 'caller', httpStatus: 415 },
  [ErrorCode.HEADERS_TOO_LARGE]: { blame: 'caller', httpStatus: 431 },
  // A per-address share is the caller's to respect; the gateway's total is the gateway's.
  [ErrorCode.GATEWAY_BUSY]: {
    blame: 'caller',
    reasons: { connections: 'gateway', body_bytes: 'gateway', answer_bytes: 'gateway', cpu: 'gateway' },
    httpStatus: 503,
  },
  [ErrorCode.PERSISTED_QUERY_NOT_FOUND]: { blame: 'caller', httpStatus: 400 },
  [ErrorCode.PERSISTED_QUERY_NOT_IN_LIST]: { blame: 'caller', httpStatus: 400 },
};

/**
 * What went wrong upstream, from the gateway's point of view, and the code each kind answers
 * (`from-upstream-error.ts`), hence its blame. Only ill health counts against the breaker
 * (`countsAgainstUpstream`).
 */
export const UPSTREAM_KIND_CODE = {
  // ── the caller's ──────────────────────────────────────────────────────────────────────────────────────
  /** Refused before sending: the upstream cannot take this input (empty id, URL too long, data too deep…). */
  invalid_input: ErrorCode.BAD_USER_INPUT,
  /** The upstream refused the input in a way that names the caller's mistake (pattern, object name…). */
  rejected_input: ErrorCode.BAD_USER_INPUT,
  /** The upstream says the session's user may not do this (an organization not open to them). */
  forbidden: ErrorCode.FORBIDDEN,
  /** The upstream rejected the credentials or the token (bad login, `SAVE_ERR_401`, auth-like message). */
  unauthenticated: ErrorCode.UNAUTHENTICATED,
  /** The upstream refused a login because the account is locked or disabled ("User account is locked"). */
  account_locked: ErrorCode.ACCOUNT_LOCKED,
  /** The upstream said the addressed object does not exist (update of an unknown id). */
  not_found: ErrorCode.NOT_FOUND,
  /** Not sent: the request already made `MAX_UPSTREAM_CALLS_PER_REQUEST` upstream calls. */
  call_budget: ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED,
  /** Not sent: this session already holds its share of the bulkhead and its own queue is full. */
  session_overloaded: ErrorCode.TOO_MANY_REQUESTS,
  /** Cut: this user's upstream answers held at once would pass its share of the answer budget. */
  answer_share: ErrorCode.TOO_MANY_REQUESTS,
  // ── the upstream's refusal ────────────────────────────────────────────────────────────────────────────
  /** The upstream answered a well-formed `status: error` (its `message` and `error_code` are kept). */
  service: ErrorCode.UPSTREAM_ERROR,
  /**
   * The upstream answered a record of another organization than the session's: never served, logged as a
   * security event. Deterministic, so not ill health.
   */
  tenant_mismatch: ErrorCode.UPSTREAM_TENANT_MISMATCH,
  // ── the upstream's ill health ─────────────────────────────────────────────────────────────────────────
  /** A deadline passed: connect, headers, body or the whole call. */
  timeout: ErrorCode.UPSTREAM_UNAVAILABLE,
  /** Refused, reset, 5xx. */
  unavailable: ErrorCode.UPSTREAM_UNAVAILABLE,
  /** The body could not be decoded: not JSONP/JSON, wrong callback, wrong shape, too large. */
  bad_response: ErrorCode.UPSTREAM_UNAVAILABLE,
  /** A write was sent but its answer is missing or unreadable: it may or may not have been applied. */
  outcome_unknown: ErrorCode.UPSTREAM_OUTCOME_UNKNOWN,
  /** Not sent: the origin's circuit breaker is open after repeated failures. */
  circuit_open: ErrorCode.UPSTREAM_UNAVAILABLE,
  /**
   * Not sent: too many upstream calls already in flight and waiting (the bulkhead); or cut: all answers
   * held at once would pass the answer budget.
   */
  overloaded: ErrorCode.UPSTREAM_UNAVAILABLE,
  // ── the gateway's own ─────────────────────────────────────────────────────────────────────────────────
  /**
   * The upstream answered, deterministically, in a way a written assumption of the gateway does not allow
   * (`src/upstream/client/assumptions.ts`): a setting, named in the error, must change. Never ill health.
   */
  dialect_mismatch: ErrorCode.UPSTREAM_DIALECT_MISMATCH,
  /** The upstream answered HTTP 4xx to a request the gateway built: the gateway should have refused it. */
  request_rejected: ErrorCode.UPSTREAM_ERROR,
  /** The gateway failed before sending (a bug): never the upstream's fault. */
  internal: ErrorCode.INTERNAL_SERVER_ERROR,
} as const satisfies Readonly<Record<string, ErrorCode>>;

/** What went wrong upstream; {@link UPSTREAM_KIND_CODE} says which code it answers. */
export type UpstreamErrorKind = keyof typeof UPSTREAM_KIND_CODE;

const RULES: Readonly<Record<string, ErrorRule | undefined>> = ERROR_TABLE;

/**
 * Whose fault an error with `code` (and `extensions.reason`) is. A code not of the catalogue is Apollo
 * Server's own (`GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`): the request's, so the caller's.
 */
export function blameOfCode(code: unknown, reason?: unknown): Blame {
  const rule = typeof code === 'string' ? RULES[code] : undefined;
  if (rule === undefined) return 'caller';
  return (typeof reason === 'string' ? rule.reasons?.[reason] : undefined) ?? rule.blame;
}

/** The HTTP status of an answer the HTTP edge refuses with `code`. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_TABLE[code].httpStatus ?? 400;
}

/**
 * The request log's level for a failure of each blame: the upstream's refusals and ill health `warn`, the
 * gateway's own `error`; the caller's mistakes stay at the route's level (`info`, probes `debug`), so an alert
 * on `warn` and above never fires for a typo.
 */
export const LOG_LEVEL_OF_BLAME: Readonly<Record<Blame, 'warn' | 'error' | undefined>> = {
  caller: undefined,
  upstream_refusal: 'warn',
  upstream_health: 'warn',
  gateway: 'error',
};
