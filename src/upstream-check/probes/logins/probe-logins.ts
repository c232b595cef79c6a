/**
 * Both logins (docs/upstream-contract.md, operations 1 and 2): their shape, `token`, `userId`, the username
 * echo, a form login's session cookie when it answers no token (`login_session`: the gateway carries it, and a
 * read with the cookie alone shows the upstream takes it), and which login the gateway can open sessions with
 * (`LOGIN_METHOD`). The password goes only into the two request bodies; a cookie's value is never reported.
 */
import {
  formLoginAnswer,
  isJsonObject,
  jsonLoginAnswer,
} from '../../../upstream/client/answers/response-schemas.ts';
import type { UpstreamCredentials } from '../../../upstream/client/types.ts';
import type { CheckContext } from '../../check-context.ts';
import { CheckCannotRun, type Finding } from '../finding.ts';
import type { RawOutcome } from '../../raw-upstream.ts';
import { decodeAsGateway } from '../wrapper-form.ts';
import { probeCookieRead, sessionCookieOf } from './probe-login-session.ts';
import { withIndefiniteArticle } from '../../../errors/indefinite-article.ts';

/**
 * What one login gave: a token or a session cookie (and the username reads must carry), a refusal, or an
 * unusable answer.
 */
type LoginResult =
  | { kind: 'token'; token: string; username: string; detail: string }
  | { kind: 'cookie'; cookie: string; username: string; detail: string }
  | { kind: 'no-token'; detail: string }
  | { kind: 'refused'; detail: string }
  | { kind: 'unusable'; detail: string }
  | { kind: 'unreachable'; detail: string };

function unreachable(outcome: Extract<RawOutcome, { ok: false }>): LoginResult {
  const { error } = outcome;
  if (error.httpStatus !== undefined)
    return { kind: 'unusable', detail: `answered HTTP ${error.httpStatus}` };
  return { kind: 'unreachable', detail: error.detail };
}

/** A login's answer decoded as the gateway would, or what it says of the login when it cannot be or says error. */
function readLoginAnswer(
  outcome: RawOutcome,
): { ok: true; value: unknown; form: string } | { ok: false; result: LoginResult } {
  if (!outcome.ok) return { ok: false, result: unreachable(outcome) };
  const decoded = decodeAsGateway(outcome.text, undefined);
  if (!decoded.ok)
    return { ok: false, result: { kind: 'unusable', detail: `the answer is ${decoded.form}` } };
  if (isJsonObject(decoded.value) && decoded.value.status === 'error')
    return { ok: false, result: { kind: 'refused', detail: 'status: error' } };
  return { ok: true, value: decoded.value, form: decoded.form };
}

async function jsonLogin(
  context: Pick<CheckContext, 'raw'>,
  username: string,
  password: string,
): Promise<LoginResult> {
  const outcome = await context.raw.post(
    'loginJson',
    'api',
    '/v1/user/login',
    'application/json',
    JSON.stringify({ username, password }),
  );
  const decoded = readLoginAnswer(outcome);
  if (!decoded.ok) return decoded.result;
  const answer = jsonLoginAnswer.safeParse(decoded.value);
  if (!answer.success) return { kind: 'unusable', detail: `no {status: "success", token} (${decoded.form})` };
  return { kind: 'token', token: answer.data.token, username, detail: `{status, token} as ${decoded.form}` };
}

async function formLogin(
  context: Pick<CheckContext, 'raw'>,
  username: string,
  password: string,
): Promise<LoginResult> {
  const body = new URLSearchParams({ username, password }).toString();
  const outcome = await context.raw.post(
    'loginForm',
    'base',
    '/app/login.jsp',
    'application/x-www-form-urlencoded',
    body,
  );
  const decoded = readLoginAnswer(outcome);
  if (!decoded.ok) return decoded.result;
  const answer = formLoginAnswer.safeParse(decoded.value);
  if (!answer.success)
    return { kind: 'unusable', detail: `no {status: "success", userId, username} (${decoded.form})` };
  const raw = decoded.value as Record<string, unknown>;
  const echo =
    answer.data.username === username
      ? 'echoes the username as sent'
      : 'answers another username (reads will carry it)';
  const userId = `userId as ${withIndefiniteArticle(typeof raw.userId)}`;
  if (answer.data.token === undefined || answer.data.token === '') {
    const session = sessionCookieOf(context.raw.cookiePaths, outcome.ok ? outcome.setCookie : undefined);
    return 'cookie' in session
      ? {
          kind: 'cookie',
          cookie: session.cookie,
          username: answer.data.username,
          detail: `${userId}, ${echo}, no token but a session cookie (${session.names})`,
        }
      : { kind: 'no-token', detail: `${userId}, ${echo}, no token: ${session.mismatch}` };
  }
  return {
    kind: 'token',
    token: answer.data.token,
    username: answer.data.username,
    detail: `${userId}, ${echo}, a token`,
  };
}

function loginFinding(topic: string, result: LoginResult): Finding {
  switch (result.kind) {
    case 'token':
      return { topic, verdict: 'as-assumed', detail: result.detail };
    case 'cookie':
      return {
        topic,
        verdict: 'as-assumed',
        detail: `${result.detail}: cookie session, the gateway carries it`,
      };
    case 'no-token':
      return {
        topic,
        verdict: 'as-assumed',
        detail: `${result.detail} (the contract allows it; this login cannot open a session)`,
      };
    case 'refused':
      return { topic, verdict: 'cannot-tell', detail: 'refused the test account' };
    default:
      return { topic, verdict: 'cannot-serve', detail: result.detail };
  }
}

/**
 * Runs both logins and returns the session the other probes read with (the `LOGIN_METHOD` the gateway
 * should use); a cookie session is tried with a read of `objectName`. Throws {@link CheckCannotRun} when
 * the upstream is unreachable or refuses the account.
 */
export async function probeLogins(
  context: Pick<CheckContext, 'raw' | 'config' | 'report'>,
  username: string,
  password: string,
  objectName?: string,
): Promise<UpstreamCredentials | undefined> {
  const json = await jsonLogin(context, username, password);
  if (json.kind === 'unreachable')
    throw new CheckCannotRun(`the upstream is unreachable at API_URL: ${json.detail}`);
  const form = await formLogin(context, username, password);
  if (form.kind === 'unreachable')
    throw new CheckCannotRun(`the upstream is unreachable at BASE_URL: ${form.detail}`);
  if (json.kind === 'refused' && form.kind === 'refused') {
    throw new CheckCannotRun(
      'both logins refused UPSTREAM_CHECK_USERNAME / UPSTREAM_CHECK_PASSWORD: bad credentials',
    );
  }
  context.report(loginFinding('JSON login', json));
  context.report(loginFinding('form login', form));
  const { config } = context;
  const cookieSession = (cookie: string, name: string): UpstreamCredentials => ({
    username: name,
    apiToken: '',
    applicationCode: config.applicationCode,
    organizationCode: config.organizationCode,
    sessionCookie: cookie,
  });
  // Whichever login the gateway is set to: a team whose users have only a mobile number needs this one.
  if (form.kind === 'cookie')
    await probeCookieRead(context, cookieSession(form.cookie, form.username), objectName);
  const method = (preferred: 'JSON' | 'FORM', result: LoginResult): Finding => ({
    topic: 'LOGIN_METHOD',
    verdict: preferred === config.loginMethod ? 'as-assumed' : 'differs',
    detail: `${preferred === 'JSON' ? 'the JSON login' : 'the form login'} opens sessions (${result.detail})`,
    settings: { LOGIN_METHOD: preferred },
  });
  const order: ['JSON' | 'FORM', LoginResult][] =
    config.loginMethod === 'FORM'
      ? [
          ['FORM', form],
          ['JSON', json],
        ]
      : [
          ['JSON', json],
          ['FORM', form],
        ];
  for (const [preferred, result] of order) {
    if (result.kind !== 'token' && result.kind !== 'cookie') continue;
    context.report(method(preferred, result));
    if (result.kind === 'cookie') return cookieSession(result.cookie, result.username);
    return {
      username: result.username,
      apiToken: result.token,
      applicationCode: config.applicationCode,
      organizationCode: config.organizationCode,
    };
  }
  context.report({
    topic: 'LOGIN_METHOD',
    verdict: 'cannot-serve',
    detail: 'neither login answered a token or a session cookie the gateway can carry',
  });
  return undefined;
}
