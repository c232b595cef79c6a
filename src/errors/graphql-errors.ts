/**
 * The gateway's own GraphQL errors, one constructor per kind, each with its code from the catalogue
 * (`error-codes.ts`): no session, not allowed, bad input, and the limits' refusals.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode, type LimitCode } from './error-codes.ts';

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
  return new GraphQLError(message, { extensions: { ...extra, code: ErrorCode.FORBIDDEN, blame: 'caller' } });
}

/** `BAD_USER_INPUT` naming the argument. */
export function badUserInput(message: string, argumentName?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, ...(argumentName ? { argumentName } : {}) },
  });
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

/** The wire form of a limit error outside GraphQL execution (the body cap, answered before Apollo). */
export function limitErrorBody(code: LimitCode, message: string, setting: string, max: number) {
  return { errors: [{ message, extensions: { code, limit: setting, max, blame: 'caller' } }] };
}
