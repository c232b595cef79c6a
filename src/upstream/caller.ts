/**
 * Whose share of the upstream a call takes and whose failure it is for the breaker: the bulkhead's per-user
 * share, the answer-byte budget's and the breaker's sources all read it here, so that they agree.
 */
import type { UpstreamCredentials } from './client/types.ts';

/**
 * The caller of a call made with `credentials`: the session's canonical user key, which the gateway puts in
 * every session's credentials (`src/graphql/context.ts`), so that logging in under a second name of an
 * account (username, mobile number) or several times gives no larger share and no second vote. Credentials
 * made without a session (the upstream check, tests) have none: then the application and the name stand for it.
 */
export function callerOf(credentials: UpstreamCredentials): string {
  return `user:${credentials.userKey ?? `${credentials.applicationCode}\u0000${credentials.username}`}`;
}
