/**
 * A form login that answers no token but a session cookie (`login_session`): which cookie the gateway would
 * carry (the client's own rule, `session-cookie.ts`), and whether a read with that cookie alone, no
 * `apiToken`, is answered. Never reports a cookie's value.
 */
import { isUpstreamError } from '../../../errors/upstream-error.ts';
import { isJsonObject } from '../../../upstream/client/answers/response-schemas.ts';
import type { UpstreamCredentials } from '../../../upstream/client/types.ts';
import { requireSessionCookie, sessionCookiesOf } from '../../../upstream/dialect/session-cookie.ts';
import type { CheckContext } from '../../check-context.ts';
import type { RawUpstream } from '../../raw-upstream.ts';
import { decodeAsGateway } from '../wrapper-form.ts';

/** The `Cookie` header the gateway would carry and the cookies' names, or why there is none to carry. */
export function sessionCookieOf(
  paths: RawUpstream['cookiePaths'],
  setCookie: string | string[] | undefined,
): { cookie: string; names: string } | { mismatch: string } {
  try {
    const cookie = requireSessionCookie(sessionCookiesOf(setCookie, paths.login, paths.calls), paths.calls);
    const names = cookie
      .split('; ')
      .map((pair) => pair.slice(0, pair.indexOf('=')))
      .join(', ');
    return { cookie, names };
  } catch (error) {
    if (!isUpstreamError(error) || error.kind !== 'dialect_mismatch') throw error;
    return { mismatch: error.detail };
  }
}

/**
 * Reports whether the upstream takes a read with the session cookie alone, as the gateway sends it: a
 * `getObject` of `objectName` with no criteria (`cannot-tell` without an object name).
 */
export async function probeCookieRead(
  context: Pick<CheckContext, 'raw' | 'report'>,
  credentials: UpstreamCredentials,
  objectName: string | undefined,
): Promise<void> {
  const topic = 'login session';
  if (objectName === undefined) {
    context.report({
      topic,
      verdict: 'cannot-tell',
      detail: 'cookie session, the gateway carries it; a read with it not probed: pass --object-name NAME',
    });
    return;
  }
  const read = await context.raw.read('getObject', credentials, '/studio/jsonp/getObject/', {
    objectName,
    filterCommand: '{"criteria":[]}',
  });
  const decoded = read.outcome.ok ? decodeAsGateway(read.outcome.text, read.callback) : undefined;
  const status = decoded?.ok === true && isJsonObject(decoded.value) ? decoded.value.status : undefined;
  context.report(
    status === 'success'
      ? {
          topic,
          verdict: 'as-assumed',
          detail:
            'cookie session, the gateway carries it: a read with the cookie and no apiToken was answered',
        }
      : {
          topic,
          verdict: 'cannot-serve',
          detail: `a read with the form login's session cookie and no apiToken was not answered (${
            read.outcome.ok ? `status: ${String(status)}` : read.outcome.error.kind
          })`,
        },
  );
}
