/**
 * A dead upstream session in the forms a servlet answers it: not only `status: error` with a message, but a
 * redirect to its login page (`302 Location: …/login.jsp`, what container-managed security and Spring Security
 * do), the login page itself served with 200, or a short `text/plain` text about the session. Each is the
 * session's end, `unauthenticated` (so the gateway session ends too: `src/auth/dead-session-plugin.ts`), never
 * an unreadable answer counted as the upstream's ill health, and never "try again".
 */
import { UpstreamError } from '../../errors/upstream-error.ts';

/** A login page's address: the names servlet containers, Spring Security and CAS give it. */
const LOGIN_ADDRESS = /login|logon|signin|sign-in|j_security_check|\/sso\b|\/cas\b|\/auth\b/i;

/** An HTML page that asks for a password: a login form. */
const LOGIN_FORM =
  /<form\b[\s\S]*?type\s*=\s*["']?password|<title>[^<]*(?:log\s*in|sign\s*in|logon)[^<]*<\/title>/i;

/** Longest text body read as a message about the session (a servlet's one-line answer). */
const MAX_SESSION_TEXT = 1_024;

/** The `unauthenticated` of a redirect to a login page, or `undefined` for any other redirect. */
export function loginRedirect(
  status: number,
  location: string | undefined,
  operation: string,
): UpstreamError | undefined {
  if (status < 300 || status > 399 || location === undefined || !LOGIN_ADDRESS.test(location))
    return undefined;
  return new UpstreamError(
    'unauthenticated',
    `HTTP ${status} to a login page: the session is no longer valid`,
    {
      operation,
      httpStatus: status,
    },
  );
}

/**
 * The `unauthenticated` of a 2xx body that is no JSON(P) but a dead session's answer: an HTML login page, or
 * a short plain text that the auth pattern (`UPSTREAM_AUTH_ERROR_PATTERN`) reads as "session no good";
 * `undefined` for anything else (which stays an unreadable answer).
 */
export function deadSessionBody(
  text: string,
  contentType: string | undefined,
  authPattern: RegExp,
  operation: string,
): UpstreamError | undefined {
  const type = (contentType ?? '').toLowerCase();
  const trimmed = text.trimStart();
  if (type.includes('html') || trimmed.startsWith('<')) {
    if (!LOGIN_FORM.test(text)) return undefined;
    return new UpstreamError(
      'unauthenticated',
      'answered with a login page: the session is no longer valid',
      {
        operation,
      },
    );
  }
  // Plain text only: a JSONP body of another callback may well name a token, and is no dead session.
  if (!type.includes('text/plain') || /[{(]/.test(text)) return undefined;
  if (text.length > MAX_SESSION_TEXT || !authPattern.test(text)) return undefined;
  return new UpstreamError(
    'unauthenticated',
    'answered a text about the session: the session is no longer valid',
    {
      operation,
    },
  );
}
