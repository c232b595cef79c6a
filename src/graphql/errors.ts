/**
 * The public error codes (README, "Errors"; docs/design.md), and the one place an `UpstreamError` becomes a GraphQL error.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { formatLimitError } from '../limits/limit-error.ts';
import { isUpstreamError, type Blame, type UpstreamError } from '../upstream/errors.ts';

/** Codes front-ends can rely on (`extensions.code`); the README's error table lists them with their blame. */
export const ErrorCode = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  MAX_UPSTREAM_CALLS_EXCEEDED: 'MAX_UPSTREAM_CALLS_EXCEEDED',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_OUTCOME_UNKNOWN: 'UPSTREAM_OUTCOME_UNKNOWN',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

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
 * The GraphQL error an upstream failure becomes. Every error carries `extensions.blame` (`caller`,
 * `upstream_refusal`, `upstream_health`, `gateway`), so a front-end can tell its own mistake from an outage.
 */
export function fromUpstreamError(error: UpstreamError): GraphQLError {
  const blame = error.blame;
  switch (error.kind) {
    case 'unauthenticated':
      return withBlame(unauthenticated('rejected_by_upstream'), blame);
    case 'invalid_input':
      return new GraphQLError(error.detail, {
        extensions: {
          code: ErrorCode.BAD_USER_INPUT,
          blame,
          ...(error.argument === undefined ? {} : { argumentName: error.argument }),
        },
      });
    case 'rejected_input':
      return new GraphQLError(
        `The upstream service refused the input of the ${error.operation}: ${error.upstreamMessage ?? 'invalid input'}`,
        { extensions: { code: ErrorCode.BAD_USER_INPUT, blame, upstream: upstreamExtension(error) } },
      );
    case 'forbidden':
      return new GraphQLError(
        `The upstream service does not allow this ${error.operation} for the session: ${error.upstreamMessage ?? 'forbidden'}`,
        { extensions: { code: ErrorCode.FORBIDDEN, blame, upstream: upstreamExtension(error) } },
      );
    case 'not_found':
      return new GraphQLError(error.upstreamMessage ?? 'Object not found.', {
        extensions: { code: ErrorCode.NOT_FOUND, blame, upstream: upstreamExtension(error) },
      });
    case 'call_budget':
      return new GraphQLError(error.detail, {
        extensions: {
          code: ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED,
          blame,
          limit: 'MAX_UPSTREAM_CALLS_PER_REQUEST',
        },
      });
    case 'session_overloaded':
      return new GraphQLError(
        'Too many upstream calls from this session at once; wait for the ones in flight before sending more.',
        { extensions: { code: ErrorCode.TOO_MANY_REQUESTS, blame, reason: error.kind } },
      );
    case 'service':
      return new GraphQLError(
        `The upstream service refused the ${error.operation}: ${error.upstreamMessage ?? 'error'}`,
        { extensions: { code: ErrorCode.UPSTREAM_ERROR, blame, upstream: upstreamExtension(error) } },
      );
    case 'request_rejected':
      return new GraphQLError(
        `The upstream service refused the ${error.operation} request the gateway built (HTTP ${error.httpStatus ?? '4xx'}).`,
        {
          extensions: {
            code: ErrorCode.UPSTREAM_ERROR,
            blame,
            reason: error.kind,
            httpStatus: error.httpStatus,
          },
        },
      );
    case 'outcome_unknown':
      return new GraphQLError(
        `The ${error.operation} was sent, but the upstream's answer was lost or unreadable: it may have been applied. Read the object before trying again.`,
        { extensions: { code: ErrorCode.UPSTREAM_OUTCOME_UNKNOWN, blame, reason: error.detail } },
      );
    case 'internal':
      return new GraphQLError('Internal server error.', {
        extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR, blame },
      });
    case 'timeout':
    case 'unavailable':
    case 'bad_response':
    case 'circuit_open':
    case 'overloaded':
      return new GraphQLError(`The upstream service is unavailable (${error.kind.replace('_', ' ')}).`, {
        extensions: { code: ErrorCode.UPSTREAM_UNAVAILABLE, blame, reason: error.kind },
      });
  }
}

function withBlame(error: GraphQLError, blame: string): GraphQLError {
  return new GraphQLError(error.message, { extensions: { ...error.extensions, blame } });
}

function upstreamExtension(error: UpstreamError): Record<string, string> {
  const out: Record<string, string> = { operation: error.operation };
  if (error.upstreamMessage !== undefined) out.message = error.upstreamMessage;
  if (error.upstreamErrorCode !== undefined) out.error_code = error.upstreamErrorCode;
  return out;
}

/**
 * Apollo's `formatError`: maps upstream failures to their codes and hides everything internal (unexpected
 * errors become `INTERNAL_SERVER_ERROR`; stack traces never leave in production).
 */
export function createErrorFormatter(options: { production: boolean }) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError =>
    addBlame(format(formatted, error, options));
}

function format(
  formatted: GraphQLFormattedError,
  error: unknown,
  options: { production: boolean },
): GraphQLFormattedError {
  const limit = formatLimitError(formatted, error);
  if (limit !== undefined) return limit;
  const original = unwrapResolverError(error);
  if (isUpstreamError(original)) {
    const mapped = fromUpstreamError(original).toJSON();
    return { ...mapped, locations: formatted.locations, path: formatted.path };
  }
  const code = formatted.extensions?.code;
  if (code === ErrorCode.INTERNAL_SERVER_ERROR || code === undefined) {
    if (original instanceof GraphQLError && original.extensions.code !== undefined)
      return strip(formatted, options);
    return {
      message: 'Internal server error.',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  }
  return strip(formatted, options);
}

/** Blame of the codes that are not the caller's; every other code (limits, validation, input) is. */
const BLAME_OF_CODE: Readonly<Record<string, Blame>> = {
  [ErrorCode.UPSTREAM_ERROR]: 'upstream_refusal',
  [ErrorCode.UPSTREAM_UNAVAILABLE]: 'upstream_health',
  [ErrorCode.UPSTREAM_OUTCOME_UNKNOWN]: 'upstream_health',
  [ErrorCode.INTERNAL_SERVER_ERROR]: 'gateway',
};

/** Every error says whose fault it is (`extensions.blame`), from its code unless it already says. */
function addBlame(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const extensions = formatted.extensions ?? {};
  if (extensions.blame !== undefined) return formatted;
  const code = typeof extensions.code === 'string' ? extensions.code : ErrorCode.INTERNAL_SERVER_ERROR;
  return { ...formatted, extensions: { ...extensions, blame: BLAME_OF_CODE[code] ?? 'caller' } };
}

function strip(formatted: GraphQLFormattedError, options: { production: boolean }): GraphQLFormattedError {
  if (!options.production || formatted.extensions?.stacktrace === undefined) return formatted;
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
