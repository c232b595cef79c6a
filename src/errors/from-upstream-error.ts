/** The one place an `UpstreamError` becomes a GraphQL error (README, "Errors"; docs/design.md). */
import { GraphQLError } from 'graphql';
import type { UpstreamError } from './upstream-error.ts';
import { UPSTREAM_KIND_CODE } from './blame.ts';
import { unauthenticated } from './graphql-errors.ts';

/**
 * The GraphQL error an upstream failure becomes: the code its kind answers ({@link UPSTREAM_KIND_CODE}) and
 * its blame (`extensions.blame`: `caller`, `upstream_refusal`, `upstream_health`, `gateway`), so a front-end
 * can tell its own mistake from an outage.
 */
export function fromUpstreamError(error: UpstreamError): GraphQLError {
  const answered = byKind(error);
  if (error.applied === undefined || error.kind === 'dialect_mismatch') return answered;
  // A read after a write failed (its read-back): the write stands and was not verified; whatever the read's
  // failure, the caller must hear that it was applied, or it takes the error for the write's and sends it again.
  return new GraphQLError(
    `The ${writeOf(error)} was applied, but reading it back failed, so what the upstream stored is not verified: ${answered.message}`,
    {
      extensions: {
        ...answered.extensions,
        applied: true,
        ...(error.applied.objectId === undefined ? {} : { objectId: error.applied.objectId }),
      },
    },
  );
}

/** The write an error after a write belongs to, as the caller knows it. */
function writeOf(error: UpstreamError): string {
  return error.operation === 'getAll' || error.operation === 'getObject' ? 'write' : error.operation;
}

function byKind(error: UpstreamError): GraphQLError {
  const { blame } = error;
  const code = UPSTREAM_KIND_CODE[error.kind];
  switch (error.kind) {
    case 'unauthenticated':
      return withBlame(unauthenticated('rejected_by_upstream'), blame);
    case 'invalid_input':
      return new GraphQLError(error.detail, {
        extensions: {
          code,
          blame,
          ...(error.argument === undefined ? {} : { argumentName: error.argument }),
        },
      });
    case 'rejected_input':
      if (error.argument === 'objectName' && error.objectName !== undefined)
        return new GraphQLError(
          `The upstream service does not take the object name ${JSON.stringify(error.objectName)} (argument objectName); check its spelling and case against the names the upstream registers: ${error.upstreamMessage ?? 'unknown object name'}`,
          {
            extensions: {
              code,
              blame,
              argumentName: 'objectName',
              objectName: error.objectName,
              upstream: upstreamExtension(error),
            },
          },
        );
      return new GraphQLError(
        `The upstream service refused the input of the ${error.operation}: ${error.upstreamMessage ?? 'invalid input'}`,
        { extensions: { code, blame, upstream: upstreamExtension(error) } },
      );
    case 'forbidden':
      return new GraphQLError(
        `The upstream service does not allow this ${error.operation} for the session: ${error.upstreamMessage ?? 'forbidden'}`,
        { extensions: { code, blame, upstream: upstreamExtension(error) } },
      );
    case 'not_found':
      return new GraphQLError(error.upstreamMessage ?? 'Object not found.', {
        extensions: { code, blame, upstream: upstreamExtension(error) },
      });
    case 'call_budget':
      return new GraphQLError(error.detail, {
        extensions: { code, blame, limit: 'MAX_UPSTREAM_CALLS_PER_REQUEST' },
      });
    case 'session_overloaded':
      return new GraphQLError(
        'Too many upstream calls from this session at once; wait for the ones in flight before sending more.',
        { extensions: { code, blame, reason: error.kind } },
      );
    case 'answer_share':
      return new GraphQLError(
        'The upstream answers this user is reading at once are too large together (UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER); ask for smaller pages or fewer at once.',
        { extensions: { code, blame, reason: error.kind } },
      );
    case 'service':
      return new GraphQLError(
        `The upstream service refused the ${error.operation}: ${error.upstreamMessage ?? 'error'}`,
        { extensions: { code, blame, upstream: upstreamExtension(error) } },
      );
    case 'request_rejected':
      return new GraphQLError(
        `The upstream service refused the ${error.operation} request the gateway built (${error.httpStatus === undefined ? (error.upstreamMessage ?? 'refused') : `HTTP ${error.httpStatus}`}).`,
        {
          extensions: {
            code,
            blame,
            reason: error.kind,
            httpStatus: error.httpStatus,
            ...(error.upstreamMessage === undefined ? {} : { upstream: upstreamExtension(error) }),
          },
        },
      );
    case 'outcome_unknown':
      return new GraphQLError(
        `The ${error.operation} was sent, but the upstream's answer was lost or unreadable: it may have been applied. Read the object before trying again.`,
        { extensions: { code, blame, reason: error.detail } },
      );
    case 'dialect_mismatch':
      return new GraphQLError(
        `The upstream answered the ${error.operation} in a way the gateway's settings do not expect: ${error.detail}${remedyOf(error.assumption)}`,
        {
          extensions: {
            code,
            blame,
            ...(error.assumption === undefined
              ? {}
              : { assumption: error.assumption.name, setting: error.assumption.setting }),
            ...(error.criterion === undefined ? {} : { criterion: error.criterion }),
            // The write happened: a retry would write it again (a duplicate, for a save).
            ...(error.applied === undefined
              ? {}
              : {
                  applied: true,
                  ...(error.applied.objectId === undefined ? {} : { objectId: error.applied.objectId }),
                  ...(error.applied.lostFields === undefined
                    ? {}
                    : { lostFields: [...error.applied.lostFields] }),
                }),
            // The fields a write's read-back shows otherwise, with both values: the caller's own data.
            ...(error.fields === undefined
              ? {}
              : { fields: error.fields.map(({ field, sent, readBack }) => ({ field, sent, readBack })) }),
          },
        },
      );
    case 'account_locked':
      return new GraphQLError(
        'The upstream service refused the login: the account is locked or disabled. Wait, or ask an administrator; typing the password again does not help.',
        { extensions: { code, blame, reason: error.kind, upstream: upstreamExtension(error) } },
      );
    case 'tenant_mismatch':
      return new GraphQLError(
        `The upstream answered the ${error.operation} with a record of another organization than the session's; it is not served.`,
        { extensions: { code, blame, reason: error.kind } },
      );
    case 'internal':
      return new GraphQLError('Internal server error.', { extensions: { code, blame } });
    case 'timeout':
    case 'unavailable':
    case 'bad_response':
    case 'circuit_open':
    case 'overloaded':
      return new GraphQLError(`The upstream service is unavailable (${error.kind.replace('_', ' ')}).`, {
        extensions: { code, blame, reason: error.kind },
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

/** What the operator can do about a dialect mismatch: the setting to check, or that none serves it (`–`). */
function remedyOf(assumption: { setting: string } | undefined): string {
  if (assumption === undefined) return '';
  if (assumption.setting === '–')
    return ' No setting covers this: the gateway cannot serve the upstream as it answers.';
  return ` Check ${assumption.setting} (npm run upstream:check says which value).`;
}
