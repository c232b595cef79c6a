import type { EmulatorUser } from '../identity/demo-users.ts';
import type { EmulatorContext, OperationRequest } from '../emulator-context.ts';
import type { TenantScope } from '../store/object-store.ts';

/** An authenticated caller and the tenant scope of its call, or why it was refused. */
export type CallerCheck =
  { ok: true; user: EmulatorUser; scope: TenantScope } | { ok: false; message: string };

const missing = (value: string | null | undefined): value is null | undefined | '' =>
  value === null || value === undefined || value === '';

/**
 * Looks up the caller: the user of a live servlet session (the `JSESSIONID` cookie of the `cookie` dialect,
 * which a servlet reads before any parameter, so `apiToken` is then ignored), else the token's. The messages
 * name the session or the token, which clients read as "log in again".
 */
function userOfToken(
  context: EmulatorContext,
  apiToken: string | null | undefined,
  sessionId: string | undefined,
): CallerCheck | EmulatorUser {
  const session = sessionId === undefined ? undefined : context.sessions.check(sessionId);
  if (session?.ok === true) return session.user;
  if (missing(apiToken) && session !== undefined) {
    return {
      ok: false,
      message:
        session.reason === 'expired' ? 'session expired: log in again' : 'invalid session: log in again',
    };
  }
  if (missing(apiToken)) return { ok: false, message: 'missing apiToken: log in and send the token' };
  const check = context.tokens.check(apiToken);
  if (!check.ok) {
    return {
      ok: false,
      message: check.reason === 'expired' ? 'token expired: log in again' : 'invalid token: log in again',
    };
  }
  return check.user;
}

/**
 * The organizations a call acts in: the one sent, which must be the user's, or all of the user's when
 * none is sent (reads only).
 */
export function scopeOf(user: EmulatorUser, organizationCode: string | null | undefined): CallerCheck {
  if (missing(organizationCode)) {
    return {
      ok: true,
      user,
      scope: { applicationCode: user.applicationCode, organizationCodes: user.organizationCodes },
    };
  }
  if (!user.organizationCodes.includes(organizationCode)) {
    return {
      ok: false,
      message: `organization ${JSON.stringify(organizationCode.slice(0, 64))} is not open to this user`,
    };
  }
  return {
    ok: true,
    user,
    scope: { applicationCode: user.applicationCode, organizationCodes: [organizationCode] },
  };
}

/**
 * Checks the credentials of a read or an update: `apiToken` must be a live token, `username` (when
 * `requireUsername`, or when sent) the token holder's name or mobile number, and `applicationCode` the
 * holder's application.
 */
export function authenticateQuery(
  context: EmulatorContext,
  request: Pick<OperationRequest, 'query' | 'sessionId'>,
  requireUsername: boolean,
): CallerCheck {
  const { query } = request;
  const username = query.get('username');
  if (requireUsername && missing(username))
    return { ok: false, message: 'missing username: credentials are required' };
  const user = userOfToken(context, query.get('apiToken'), request.sessionId);
  if ('ok' in user) return user;
  if (!missing(username) && context.users.byUsernameOrMobile(username) !== user) {
    return { ok: false, message: 'the token does not belong to this username: credentials rejected' };
  }
  return checkApplication(user, query.get('applicationCode'), query.get('organizationCode'));
}

/** The credentials a save's body (and its `JSESSIONID` cookie) carries. */
export interface SaveCredentials {
  apiToken: string | undefined;
  sessionId: string | undefined;
  applicationCode: string;
  organizationCode: string;
}

/** Checks the credentials of a save: a live session or `apiToken`, and the holder's `applicationCode`. */
export function authenticateToken(context: EmulatorContext, credentials: SaveCredentials): CallerCheck {
  const { apiToken, sessionId, applicationCode, organizationCode } = credentials;
  const user = userOfToken(context, apiToken, sessionId);
  if ('ok' in user) return user;
  return checkApplication(user, applicationCode, organizationCode);
}

function checkApplication(
  user: EmulatorUser,
  applicationCode: string | null | undefined,
  organizationCode: string | null | undefined,
): CallerCheck {
  if (missing(applicationCode))
    return { ok: false, message: 'missing applicationCode: credentials are incomplete' };
  if (applicationCode !== user.applicationCode) {
    return { ok: false, message: 'applicationCode does not match the credentials' };
  }
  return scopeOf(user, organizationCode);
}
