/** `login`, `logout` and `me`: the upstream's two logins, sealed into the gateway's own session token. */
import type { Resolvers } from '../generated/resolvers-types.ts';
import { isUpstreamError } from '../errors/upstream-error.ts';
import type { LoginOutcome } from '../auth/login-protection.ts';
import { checkOrganizationCode } from '../auth/organization-code.ts';
import { accountOf } from '../auth/user-key.ts';
import { unauthenticated, unusableUpstreamAnswer } from '../errors/graphql-errors.ts';

/** Who the upstream says logged in, and its token (or session cookie) for them. */
interface UpstreamIdentity {
  username: string;
  /** `null` after the JSON login, which answers no user id. */
  userId: string | null;
  /** The account, for every share and vote (`src/auth/user-key.ts`): sealed into the session. */
  account: string;
  /** The `userId` the upstream vouched for under the name typed, if this login learnt one: the name is linked to it. */
  accountUserId: string | null;
  apiToken: string | undefined;
  /** The form login's session cookie, when it answered no token (the client refuses a login with neither). */
  sessionCookie: string | undefined;
}

function toIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** Resolvers of sessions: opening one (`login`), closing it (`logout`), reading it (`me`). */
export const loginResolvers: Resolvers = {
  Query: {
    me: (_parent, _args, ctx) => ctx.session,
  },

  Mutation: {
    async login(_parent, { username, password, method, organizationCode, deviceToken }, ctx) {
      const { config, writes: upstream, sessions, loginProtection } = ctx.services;
      const chosen = method ?? config.loginMethod;
      // Before the login protection: a malformed organization is no password guess, and costs no upstream call.
      const organization = checkOrganizationCode(organizationCode, config);
      // Blocks, failure counting and the timing floor: src/auth/login-protection.ts.
      const guarded = { username, clientIp: ctx.clientIp, deviceToken, method: chosen };
      const { result: identity, deviceToken: nextDeviceToken } = await loginProtection.run(
        guarded,
        async ({ knownDevice }): Promise<LoginOutcome<UpstreamIdentity>> => {
          const share = knownDevice ? 'known' : 'unknown';
          try {
            if (chosen === 'FORM') {
              const result = await upstream.loginForm(username, password, share);
              const identity = {
                username: result.username,
                userId: result.userId,
                account: accountOf(result),
                accountUserId: result.userId,
                apiToken: result.token,
                sessionCookie: result.sessionCookie,
              };
              return { accepted: true, result: identity };
            }
            const result = await upstream.loginJson(username, password, share);
            // The JSON login says nothing of whose token it is: the account is learnt (src/auth/json-login-account.ts).
            const { account, userId: accountUserId } = await loginProtection.jsonLoginAccount(
              username,
              async () => (await upstream.loginForm(username, password, share)).userId,
            );
            const identity = {
              username,
              userId: null,
              account,
              accountUserId,
              apiToken: result.token,
              sessionCookie: undefined,
            };
            return { accepted: true, result: identity };
          } catch (error) {
            // The upstream's refusal of the credentials; the guard answers every one alike, so nothing tells
            // whether the user exists.
            if (isUpstreamError(error) && (error.kind === 'unauthenticated' || error.kind === 'service')) {
              return { accepted: false };
            }
            throw error;
          }
        },
      );
      const apiToken = identity.apiToken ?? '';
      if (apiToken === '' && identity.sessionCookie === undefined) {
        throw unusableUpstreamAnswer(
          'The upstream form login returned no token, so no session can be opened.',
          'loginForm',
        );
      }
      // A cookie session is sealed like a token: the client holds it only encrypted, inside its own token.
      const { token, claims } = await sessions.seal({
        username: identity.username,
        userId: identity.userId,
        account: identity.account,
        applicationCode: config.applicationCode,
        organizationCode: organization,
        apiToken,
        ...(identity.sessionCookie === undefined ? {} : { sessionCookie: identity.sessionCookie }),
      });
      return {
        token,
        expiresAt: toIso(claims.expiresAtSeconds),
        user: { id: claims.userId, username: claims.username },
        deviceToken: nextDeviceToken,
      };
    },

    async logout(_parent, _args, ctx) {
      const { session, noSessionReason } = ctx;
      if (session === null) {
        // Already over: logging out again is not a mistake. A missing or forged token is.
        if (noSessionReason === 'missing' || noSessionReason === 'invalid')
          throw unauthenticated(noSessionReason);
        return true;
      }
      await ctx.services.revocations.revoke(session, 'revoked');
      return true;
    },
  },

  Session: {
    expiresAt: (session) => toIso(session.expiresAtSeconds),
  },
};
