/**
 * The gateway's own GraphQL errors, one constructor per kind, each with its code from the catalogue
 * (`error-codes.ts`): no session, not allowed, bad input, not found, a busy pattern guard, an upstream that
 * gave no session, a refused operation type, and the limits' refusals. No other module builds a
 * `GraphQLError`; `formatError` adds each one's blame from the table (`blame.ts`).
 */
import { GraphQLError, type ASTNode } from 'graphql';
import { ErrorCode, type LimitCode } from './error-codes.ts';
import { blameOfCode } from './blame.ts';

const UNAUTHENTICATED_MESSAGES = {
  missing: 'Authentication required: send Authorization: Bearer <token> from the login mutation.',
  invalid: 'The session token is invalid; log in again.',
  expired: 'The session has expired; log in again.',
  revoked: 'The session was logged out; log in again.',
  rejected_by_upstream: 'The upstream service no longer accepts this session; log in again.',
  credentials: 'Invalid username or password.',
} as const;

/** Why a request has no session: `extensions.reason` of its `UNAUTHENTICATED`. */
export type NoSessionReason = Exclude<keyof typeof UNAUTHENTICATED_MESSAGES, 'credentials'>;

/**
 * `UNAUTHENTICATED` with a message that says what to do, never why a login failed. For a missing or dead
 * session, `extensions.reason` says which (`missing`, `invalid`, `expired`, `revoked`,
 * `rejected_by_upstream`); `extra` adds extensions (the login limiter's `retryAfter`).
 */
export function unauthenticated(
  reason: keyof typeof UNAUTHENTICATED_MESSAGES,
  extra: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(UNAUTHENTICATED_MESSAGES[reason], {
    extensions: {
      ...extra,
      code: ErrorCode.UNAUTHENTICATED,
      ...(reason === 'credentials' ? {} : { reason }),
    },
  });
}

/** `FORBIDDEN` (blame `caller`) with a message written for a person. */
export function forbidden(message: string, extra: Record<string, unknown> = {}): GraphQLError {
  const code = ErrorCode.FORBIDDEN;
  return new GraphQLError(message, { extensions: { ...extra, code, blame: blameOfCode(code) } });
}

/** `BAD_USER_INPUT` naming the argument. */
export function badUserInput(message: string, argumentName?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, ...(argumentName ? { argumentName } : {}) },
  });
}

/**
 * `STALE_CURSOR` naming the cursor argument: the record the cursor was issued for no longer stands at its
 * offset (another writer moved records, `src/objects/paging.ts`), so serving the page would repeat or skip.
 */
export function staleCursor(argumentName: 'after' | 'before'): GraphQLError {
  return new GraphQLError(
    `The list changed since the cursor in "${argumentName}" was issued (records were moved or removed), so this ` +
      'page would repeat or skip objects: read the connection again from its first page.',
    { extensions: { code: ErrorCode.STALE_CURSOR, argumentName } },
  );
}

/**
 * `BAD_USER_INPUT` for a filter on a field the upstream's `matches` cannot see (`UPSTREAM_UNFILTERABLE_FIELDS`):
 * sent, it would answer nothing, which the gateway could not tell from "no record matches".
 */
export function unfilterableField(message: string, argumentName: string, field: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: {
      code: ErrorCode.BAD_USER_INPUT,
      argumentName,
      reason: 'unfilterable_field',
      field,
      setting: 'UPSTREAM_UNFILTERABLE_FIELDS',
    },
  });
}

/** `BAD_USER_INPUT` for a number literal of the document at `node` that a double would change. */
export function inexactNumber(message: string, node: ASTNode): GraphQLError {
  return new GraphQLError(message, {
    nodes: node,
    extensions: { code: ErrorCode.BAD_USER_INPUT, reason: 'inexact_number' },
  });
}

/**
 * `BAD_REQUEST` for an object literal of the document at `node` holding a key that could reach a
 * prototype (`__proto__`, or `constructor` holding `prototype`): the keys the request body's JSON parser
 * refuses in the variables (`src/http/error-handler.ts`), refused in the same words.
 */
export function forbiddenKey(node: ASTNode): GraphQLError {
  return new GraphQLError('The document holds a forbidden key (`__proto__` or `constructor.prototype`).', {
    nodes: node,
    extensions: { code: ErrorCode.BAD_REQUEST },
  });
}

/** `NOT_FOUND`: the object the operation addresses does not exist. */
export function notFound(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.NOT_FOUND } });
}

/**
 * `TOO_MANY_REQUESTS` with `reason: pattern_guard_busy`: the pattern guard is checking as many new patterns
 * as it may. The gateway's capacity, not the caller's pattern (blame `gateway`): worth a retry in a second.
 */
export function patternGuardBusy(message: string): GraphQLError {
  const code = ErrorCode.TOO_MANY_REQUESTS;
  const reason = 'pattern_guard_busy';
  return new GraphQLError(message, {
    extensions: { code, blame: blameOfCode(code, reason), reason, retryAfter: 1 },
  });
}

/**
 * `TOO_MANY_REQUESTS` with `reason: login_share`: this address or account started as many logins this
 * minute, or has as many in flight, as its share of the upstream allows (`src/auth/login-share.ts`).
 */
export function loginShareSpent(retryAfterSeconds: number): GraphQLError {
  const code = ErrorCode.TOO_MANY_REQUESTS;
  const reason = 'login_share';
  return new GraphQLError('Too many logins from this address or for this account; retry later.', {
    extensions: { code, blame: blameOfCode(code, reason), reason, retryAfter: retryAfterSeconds },
  });
}

/**
 * `TOO_MANY_REQUESTS` with `reason: answer_bytes_share`: this user's answers being built at once would pass its
 * share (`MAX_INFLIGHT_ANSWER_BYTES_PER_USER`, requests without a session a sixteenth of it together).
 */
export function answerShareSpent(shareBytes: number): GraphQLError {
  const code = ErrorCode.TOO_MANY_REQUESTS;
  const reason = 'answer_bytes_share';
  return new GraphQLError(
    `This user's answers being built at once would pass its share of ${shareBytes} characters ` +
      '(MAX_INFLIGHT_ANSWER_BYTES_PER_USER): wait for its other answers, or ask for smaller pages and fewer aliases.',
    { extensions: { code, blame: blameOfCode(code, reason), reason, retryAfter: 1 } },
  );
}

/**
 * `GATEWAY_BUSY` with `reason: answer_bytes`: the answers being built at once, all callers together, would
 * pass `MAX_INFLIGHT_ANSWER_BYTES` (the gateway's capacity: worth a retry in a second).
 */
export function answerBytesBusy(totalBytes: number): GraphQLError {
  const code = ErrorCode.GATEWAY_BUSY;
  const reason = 'answer_bytes';
  return new GraphQLError(
    `The answers being built at once would pass ${totalBytes} characters (MAX_INFLIGHT_ANSWER_BYTES); retry in a second.`,
    {
      extensions: { code, blame: blameOfCode(code, reason), reason, retryAfter: 1, http: { status: 503 } },
    },
  );
}

/** `UPSTREAM_ERROR` for an answer of the upstream's `operation` that the gateway cannot use. */
export function unusableUpstreamAnswer(message: string, operation: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.UPSTREAM_ERROR, upstream: { operation } },
  });
}

/** `BAD_REQUEST` (HTTP 400) for an operation the gateway does not run (a `subscription`). */
export function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 400 } } });
}

/**
 * A limit's error: `setting` names the environment variable that holds `max` (none for fixed rules);
 * `extra` adds extensions (what was measured, Apollo's `http`).
 */
export function limitError(
  code: LimitCode,
  message: string,
  setting?: string,
  max?: number,
  extra: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, ...(setting === undefined ? {} : { limit: setting, max }), ...extra },
  });
}

/**
 * `INTROSPECTION_DISABLED` at a `__schema` or `__type` field: names the setting that turns introspection on
 * (Apollo's own refusal names its code option, which a gateway's operator never sees).
 */
export function introspectionDisabled(node: ASTNode): GraphQLError {
  return new GraphQLError(
    'Introspection is off on this gateway, so __schema and __type are refused: set INTROSPECTION=true to answer them (off by default in production), or print the schema with `npm run schema:print`.',
    { nodes: node, extensions: { code: ErrorCode.INTROSPECTION_DISABLED, setting: 'INTROSPECTION' } },
  );
}

/** The wire form of a limit error outside GraphQL execution (the body cap, answered before Apollo). */
export function limitErrorBody(code: LimitCode, message: string, setting: string, max: number) {
  return { errors: [{ message, extensions: { code, limit: setting, max, blame: blameOfCode(code) } }] };
}
