/**
 * Makes a session the upstream rejected dead for good: once a request's answer holds `UNAUTHENTICATED` with
 * `reason: rejected_by_upstream`, the session goes on the revocation list (so `me` answers `null` and every
 * later call `UNAUTHENTICATED` without asking the upstream again).
 *
 * A rejection of a new session that never had an upstream call accepted (on this replica) is not "log in
 * again": the login worked but the account cannot use this application or organization (another
 * application's user), and logging in again would loop. That answer becomes `FORBIDDEN` with a message a
 * person understands; the session is dead all the same. Not so when the upstream's token had simply run out
 * before the session's first call (a tab left open past the token's lifetime): the upstream's words say so
 * ("token expired"), or the session is older than {@link FRESH_SESSION_SECONDS}; then logging in again is
 * the answer, and it stays `UNAUTHENTICATED`. An account refused for good that waited that long is told to
 * log in again once, and `FORBIDDEN` right after.
 */
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { GraphQLContext } from '../graphql/context.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import { ErrorCode } from '../errors/error-codes.ts';
import { blameOfCode } from '../errors/blame.ts';
import { isUpstreamError } from '../errors/upstream-error.ts';
import type { SessionClaims } from './session.ts';
import type { SessionRevocations } from './session-revocations.ts';

/** Options of {@link createDeadSessionPlugin}. */
export interface DeadSessionPluginOptions {
  revocations: SessionRevocations;
  scopes: RequestScopes;
  /** Sessions remembered as accepted by the upstream at least once. Default 100_000. */
  maxProvenSessions?: number;
}

/**
 * How long after its login a session's first refusal is still taken for an account that cannot use this
 * application: a front-end's first call follows its login within seconds.
 */
export const FRESH_SESSION_SECONDS = 60;

/** An upstream's words for a token that ran out (`token expired`, `session has expired`, `Expired`). */
const EXPIRY = /expir/i;

/** The upstream said the token ran out: the session is dead, the account is not refused. */
function saysExpired(errors: readonly GraphQLError[] | undefined): boolean {
  return (errors ?? []).some((error) => {
    const original = unwrapResolverError(error);
    return (
      isUpstreamError(original) &&
      original.kind === 'unauthenticated' &&
      EXPIRY.test(original.upstreamMessage ?? '')
    );
  });
}

function isRejection(error: GraphQLFormattedError): boolean {
  return (
    error.extensions?.code === ErrorCode.UNAUTHENTICATED && error.extensions.reason === 'rejected_by_upstream'
  );
}

function isAuthError(error: GraphQLFormattedError): boolean {
  const code = error.extensions?.code;
  return code === ErrorCode.UNAUTHENTICATED || code === ErrorCode.FORBIDDEN;
}

/** The `FORBIDDEN` a session gets when the upstream refuses it before ever accepting it. */
function notForThisApplication(session: SessionClaims, error: GraphQLFormattedError): GraphQLFormattedError {
  const organization =
    session.organizationCode === null ? '' : ` in organization "${session.organizationCode}"`;
  return {
    ...error,
    message:
      `The account "${session.username}" signed in, but the upstream service refused its first request: it ` +
      `cannot use application "${session.applicationCode}"${organization}. If logging in again ends the same ` +
      'way, ask an administrator for access, or sign in with another account or organization.',
    extensions: {
      code: ErrorCode.FORBIDDEN,
      blame: blameOfCode(ErrorCode.FORBIDDEN),
      reason: 'not_allowed_after_login',
    },
  };
}

/** The plugin. */
export function createDeadSessionPlugin(
  options: DeadSessionPluginOptions,
): ApolloServerPlugin<GraphQLContext> {
  // Per replica: a session proven on another replica is only unproven here until its first accepted call.
  const proven = new LRUCache<string, true>({ max: options.maxProvenSessions ?? 100_000 });
  // One listener for every request with a session; none for a request without one: nothing to do there.
  const listener: GraphQLRequestListener<GraphQLContext> = {
    async willSendResponse({ contextValue, response, errors: raised }) {
      const { session } = contextValue;
      if (session === null || response.body.kind !== 'single') return;
      const result = response.body.singleResult;
      const errors = result.errors ?? [];
      if (!errors.some(isRejection)) {
        const calls = options.scopes.current()?.upstreamCalls ?? 0;
        if (calls > 0 && !errors.some(isAuthError)) proven.set(session.tokenId, true);
        return;
      }
      await options.revocations.revoke(session, 'rejected_by_upstream');
      if (proven.has(session.tokenId)) return;
      const ageSeconds = Date.now() / 1000 - session.issuedAtSeconds;
      if (ageSeconds > FRESH_SESSION_SECONDS || saysExpired(raised)) return;
      result.errors = errors.map((error) =>
        isRejection(error) ? notForThisApplication(session, error) : error,
      );
    },
  };
  const started = Promise.resolve(listener);
  const none = Promise.resolve(undefined);
  return {
    requestDidStart: ({ contextValue }) => (contextValue.session === null ? none : started),
  };
}
