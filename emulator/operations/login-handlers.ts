import { ACCOUNT_LOCKED } from './read-quirks.ts';
import type { EmulatorContext, OperationRequest } from '../emulator-context.ts';
import { parseFormBody } from '../http/form-body.ts';
import { jsonReply, type Reply } from '../http/reply.ts';

// One message for an unknown user and a wrong password, so a caller cannot probe for usernames.
const BAD_CREDENTIALS = 'invalid credentials: unknown user or wrong password';
const MISSING_CREDENTIALS = 'missing credentials: username and password are required';
const TOO_LARGE = 'request body larger than 1 MB';

const error = (message: string): Reply => jsonReply({ status: 'error', message });

/** Whether the `lockedUsers` read quirk locks `username` out (Spring Security's `LockedException`). */
function isLocked(context: EmulatorContext, username: string): boolean {
  return context.readQuirks.lockedUsers?.includes(username) === true;
}

/** `POST /v1/user/login`: JSON body `{username, password}`, answers `{status:'success', token}`. */
export function handleJsonLogin(context: EmulatorContext, request: OperationRequest): Reply {
  if (request.body === undefined) return error(TOO_LARGE);
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return error('malformed JSON body');
  }
  if (typeof body !== 'object' || body === null) return error(MISSING_CREDENTIALS);
  const { username, password } = body as Record<string, unknown>;
  if (typeof username !== 'string' || typeof password !== 'string' || username === '' || password === '') {
    return error(MISSING_CREDENTIALS);
  }
  // The JSON login documents a username only; the mobile number is a feature of the form login.
  const user = context.users.byUsername(username);
  if (user !== undefined && isLocked(context, user.username)) return error(ACCOUNT_LOCKED);
  if (user === undefined || !context.users.checkPassword(user, password)) return error(BAD_CREDENTIALS);
  return jsonReply({ status: 'success', token: context.tokens.issue(user) });
}

/**
 * `POST /app/login.jsp`: form body `username` (name or registered mobile number) and `password`; answers
 * `{status, userId, username, token, message}` with `username` echoing what was submitted.
 */
export function handleFormLogin(context: EmulatorContext, request: OperationRequest): Reply {
  if (request.body === undefined) return error(TOO_LARGE);
  const form = parseFormBody(request.body, request.bodyEncoding);
  if (form === undefined) return error('malformed form body');
  const username = form.get('username') ?? '';
  const password = form.get('password') ?? '';
  if (username === '' || password === '') return error(MISSING_CREDENTIALS);
  const user = context.users.byUsernameOrMobile(username);
  if (user !== undefined && isLocked(context, user.username)) return error(ACCOUNT_LOCKED);
  if (user === undefined || !context.users.checkPassword(user, password)) return error(BAD_CREDENTIALS);
  if (context.formLoginSession === 'cookie') {
    // A JSP page on an HttpSession: the session id travels in the container's cookie, the answer has no token.
    const sessionId = context.sessions.issue(user);
    const reply = jsonReply({
      status: 'success',
      userId: user.userId,
      username,
      message: 'login successful',
    });
    return { ...reply, setCookie: `JSESSIONID=${sessionId}; Path=/; HttpOnly` };
  }
  return jsonReply({
    status: 'success',
    userId: user.userId,
    username,
    // The contract allows a form login without a token (`EMULATOR_FORM_LOGIN_TOKEN=false`).
    ...(context.formLoginToken ? { token: context.tokens.issue(user) } : {}),
    message: 'login successful',
  });
}
