/**
 * The session cookie of a form login that answers no token (docs/upstream-contract.md, `login_session`): a
 * `login.jsp` is a JSP page, and a servlet keeps its session in an `HttpSession` named by a cookie
 * (`JSESSIONID` on Tomcat and Jetty, but any name is taken). The gateway seals what the login set into its own
 * session token and sends it back as one `Cookie` header on the session's reads and writes.
 *
 * Each `Set-Cookie` is parsed by undici's RFC 6265bis parser (`parseCookie`), not by hand. Of the attributes
 * only `Path` is honoured, and `Max-Age` <= 0 (how a servlet deletes a cookie): a cookie is kept only when its
 * path covers every path the session's calls go to, because a servlet scopes its session to its context path,
 * and a session of another context would not be the reads' session. Domain, Secure, SameSite and expiry are
 * left to the upstream: the cookie goes only to the configured upstream addresses, and the upstream's "session
 * no good" answer ends the gateway's session as a rejected token does.
 */
import { parseCookie } from 'undici';
import { dialectMismatch } from './assumptions.ts';

/**
 * The longest `Cookie` header the gateway seals, in characters. A servlet's session id is about 32 to 60
 * (`JSESSIONID=…` with a route suffix); the bound keeps the sealed session token under the 4,096 characters
 * the gateway opens, and the header within the request-header allowance.
 */
export const MAX_SESSION_COOKIE_LENGTH = 1024;

/** What a login's `Set-Cookie` headers give the session. */
export interface SessionCookies {
  /** The `Cookie` header to send (`name=value; name2=value2`), or `undefined` when no cookie covers the calls. */
  header: string | undefined;
  /** The names (never the values) of cookies set for a path that does not cover every call, for the error. */
  uncovered: string[];
}

/**
 * The cookies `setCookie` (a response's `set-cookie` values) sets for every path in `callPaths` (the path
 * prefixes the session's calls go to), given the login's own `loginPath` (the default path of a cookie
 * without `Path`, RFC 6265 §5.1.4). A later cookie of the same name replaces an earlier one.
 */
export function sessionCookiesOf(
  setCookie: string | readonly string[] | undefined,
  loginPath: string,
  callPaths: readonly string[],
): SessionCookies {
  const values = setCookie === undefined ? [] : typeof setCookie === 'string' ? [setCookie] : setCookie;
  const kept = new Map<string, string>();
  const uncovered = new Set<string>();
  for (const text of values) {
    const cookie = parseCookie(text);
    // A nameless cookie has no `name=` to send back; an unparsable one is ignored, as a browser ignores it.
    if (cookie === null || cookie.name === '') continue;
    if (cookie.maxAge !== undefined && cookie.maxAge <= 0) {
      kept.delete(cookie.name);
      continue;
    }
    const path = cookie.path ?? defaultPath(loginPath);
    if (callPaths.every((callPath) => pathMatches(callPath, path))) {
      kept.delete(cookie.name);
      kept.set(cookie.name, cookie.value);
      uncovered.delete(cookie.name);
    } else {
      uncovered.add(cookie.name);
    }
  }
  const header = [...kept].map(([name, value]) => `${name}=${value}`).join('; ');
  return { header: header === '' ? undefined : header, uncovered: [...uncovered] };
}

/**
 * The session cookie of a form login that answered no token, or the `UPSTREAM_DIALECT_MISMATCH` that says why
 * there is none to carry (none set, none for the calls' paths, or too long to seal). Never names a value.
 */
export function requireSessionCookie(cookies: SessionCookies, callPaths: readonly string[]): string {
  const { header, uncovered } = cookies;
  if (header !== undefined && header.length <= MAX_SESSION_COOKIE_LENGTH) return header;
  const detail =
    header !== undefined
      ? `the form login answered no token and session cookies longer than ${MAX_SESSION_COOKIE_LENGTH} characters.`
      : uncovered.length > 0
        ? `the form login answered no token, and its cookies (${namesOf(uncovered)}) are set for a path that does not cover ${callPaths.join(' and ')}.`
        : 'the form login answered no token and no session cookie.';
  return throwMismatch(detail);
}

/** Cookie names for an error message: at most five, each cut at 64 characters (the upstream chose them). */
function namesOf(names: readonly string[]): string {
  return names
    .slice(0, 5)
    .map((name) => name.slice(0, 64))
    .join(', ');
}

function throwMismatch(detail: string): never {
  throw dialectMismatch('loginForm', 'login_session', detail);
}

/** RFC 6265 §5.1.4: the directory of the request path, `/` when it has none. */
function defaultPath(requestPath: string): string {
  const slash = requestPath.lastIndexOf('/');
  return slash <= 0 ? '/' : requestPath.slice(0, slash);
}

/** RFC 6265 §5.1.4 path-match: `cookiePath` is `requestPath` or a segment-wise prefix of it. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}
