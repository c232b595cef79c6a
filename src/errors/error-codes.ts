/**
 * The one catalogue of error codes (`extensions.code`) the gateway answers, whichever layer refuses: GraphQL
 * execution, the query limits, the HTTP edge, trusted documents. The README's "Errors" table lists them with
 * their blame (decided once, in `blame.ts`); a code's string never changes (front-ends switch on it).
 */

/** Every code the gateway answers. */
export const ErrorCode = {
  // Execution: sessions, input, the upstream's answers.
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  /**
   * The record a cursor (`after`, `before`) was issued for no longer stands at its place in the list: other
   * writes moved records since, so the page would repeat or skip some. Read again from the first page.
   */
  STALE_CURSOR: 'STALE_CURSOR',
  /** The upstream refused a login because the account is locked or disabled, not for a wrong password. */
  ACCOUNT_LOCKED: 'ACCOUNT_LOCKED',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_OUTCOME_UNKNOWN: 'UPSTREAM_OUTCOME_UNKNOWN',
  /**
   * The upstream answered in a way one of the gateway's written assumptions about it does not allow (another
   * charset, page cap, save or update form…): `extensions.assumption` names it, `extensions.setting` the
   * setting that fixes it (docs/upstream-contract.md, "Assumptions").
   */
  UPSTREAM_DIALECT_MISMATCH: 'UPSTREAM_DIALECT_MISMATCH',
  /**
   * The upstream answered a record of another organization than the session's (its tenant field,
   * `UPSTREAM_TENANT_FIELD`): never served; a security event.
   */
  UPSTREAM_TENANT_MISMATCH: 'UPSTREAM_TENANT_MISMATCH',
  /** A typed field whose upstream value does not fit the declared type (`bad-upstream-value.ts`). */
  BAD_UPSTREAM_VALUE: 'BAD_UPSTREAM_VALUE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  // The gateway's own limits (`LIMIT_CODES`), each naming its setting in `extensions.limit`.
  MAX_DEPTH_EXCEEDED: 'MAX_DEPTH_EXCEEDED',
  MAX_ALIASES_EXCEEDED: 'MAX_ALIASES_EXCEEDED',
  MAX_DIRECTIVES_EXCEEDED: 'MAX_DIRECTIVES_EXCEEDED',
  MAX_TOKENS_EXCEEDED: 'MAX_TOKENS_EXCEEDED',
  MAX_COST_EXCEEDED: 'MAX_COST_EXCEEDED',
  /** Refused before execution from the estimate, and answered during it by the run-time budget. */
  MAX_UPSTREAM_CALLS_EXCEEDED: 'MAX_UPSTREAM_CALLS_EXCEEDED',
  /** Refused before execution from the answer's estimated size, and answered during it once the answer reaches it. */
  MAX_ANSWER_BYTES_EXCEEDED: 'MAX_ANSWER_BYTES_EXCEEDED',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  /** The document text is over `MAX_DOCUMENT_BYTES` (refused before parsing). */
  DOCUMENT_TOO_LARGE: 'DOCUMENT_TOO_LARGE',
  /** The document's comments are over `MAX_COMMENT_BYTES` (refused before parsing). */
  COMMENTS_TOO_LARGE: 'COMMENTS_TOO_LARGE',
  LOGIN_NOT_ALONE: 'LOGIN_NOT_ALONE',
  MAX_INTROSPECTION_DEPTH_EXCEEDED: 'MAX_INTROSPECTION_DEPTH_EXCEEDED',
  /** `__schema` or `__type` while the `INTROSPECTION` setting is off (`extensions.setting` names it). */
  INTROSPECTION_DISABLED: 'INTROSPECTION_DISABLED',
  // The HTTP edge, answered before (or instead of) GraphQL execution (`src/http/`).
  BAD_REQUEST: 'BAD_REQUEST',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  /** HTTP 406: the `Accept` header names no type the endpoint answers (say, `text/html` with no landing page). */
  NOT_ACCEPTABLE: 'NOT_ACCEPTABLE',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  /** HTTP 503: too many connections or request bytes at once, from this address or in all (`reason`). */
  GATEWAY_BUSY: 'GATEWAY_BUSY',
  // Trusted documents (`src/trusted/`).
  /** A `documentId` or hash that no manifest holds. */
  PERSISTED_QUERY_NOT_FOUND: 'PERSISTED_QUERY_NOT_FOUND',
  /** `TRUSTED_DOCUMENTS_ONLY`: a document sent as text that no manifest holds. */
  PERSISTED_QUERY_NOT_IN_LIST: 'PERSISTED_QUERY_NOT_IN_LIST',
} as const;

/** One of {@link ErrorCode}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The codes of the gateway's own limits: their errors carry the setting (`limit`) and its value (`max`). */
export const LIMIT_CODES = [
  ErrorCode.MAX_DEPTH_EXCEEDED,
  ErrorCode.MAX_ALIASES_EXCEEDED,
  ErrorCode.MAX_DIRECTIVES_EXCEEDED,
  ErrorCode.MAX_TOKENS_EXCEEDED,
  ErrorCode.MAX_COST_EXCEEDED,
  ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED,
  ErrorCode.MAX_ANSWER_BYTES_EXCEEDED,
  ErrorCode.BODY_TOO_LARGE,
  ErrorCode.DOCUMENT_TOO_LARGE,
  ErrorCode.COMMENTS_TOO_LARGE,
  ErrorCode.LOGIN_NOT_ALONE,
  ErrorCode.MAX_INTROSPECTION_DEPTH_EXCEEDED,
] as const;

/** One of {@link LIMIT_CODES}. */
export type LimitCode = (typeof LIMIT_CODES)[number];

const LIMITS: ReadonlySet<string> = new Set(LIMIT_CODES);

/** Whether `code` is one of the limits' codes. */
export function isLimitCode(code: unknown): code is LimitCode {
  return typeof code === 'string' && LIMITS.has(code);
}
