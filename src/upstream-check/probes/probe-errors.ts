/**
 * How the upstream says "your token is no good" and "your input is wrong" (docs/design.md), read through
 * the gateway's own client so that its classification (`UPSTREAM_AUTH_ERROR_PATTERN`,
 * `UPSTREAM_CALLER_ERROR_PATTERN`, `UPSTREAM_FORBIDDEN_ERROR_PATTERN`) is what is checked.
 */
import { isUpstreamError, type UpstreamError } from '../../errors/upstream-error.ts';
import type { UpstreamCredentials } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import type { Finding } from './finding.ts';

/** A token no upstream issued. */
export const MADE_UP_TOKEN = 'upstream-check-made-up-token';

/**
 * `credentials` with a token no upstream issued, or for a cookie session (whose token is ignored) every
 * cookie's value made up: what a session the upstream no longer knows sends.
 */
export function madeUpCredentials(credentials: UpstreamCredentials): UpstreamCredentials {
  const { sessionCookie } = credentials;
  if (sessionCookie === undefined) return { ...credentials, apiToken: MADE_UP_TOKEN };
  const madeUp = sessionCookie
    .split('; ')
    .map((pair) => `${pair.slice(0, pair.indexOf('='))}=${MADE_UP_TOKEN}`)
    .join('; ');
  return { ...credentials, sessionCookie: madeUp };
}

/** A pattern source matching `message`'s first words literally, for a setting to extend. */
function literalSource(message: string): string {
  return message
    .slice(0, 40)
    .trim()
    .replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** Reads through the client and answers the failure, or `undefined` when the read succeeded. */
async function failureOf(read: () => Promise<unknown>): Promise<UpstreamError | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (isUpstreamError(error)) return error;
    throw error;
  }
}

const said = (error: UpstreamError) =>
  error.upstreamMessage === undefined
    ? error.httpStatus === undefined
      ? error.detail
      : `HTTP ${error.httpStatus}`
    : JSON.stringify(error.upstreamMessage);

/** Classifies the answer to a read with a made-up token. */
export function badTokenFinding(
  context: Pick<CheckContext, 'config'>,
  topic: string,
  error: UpstreamError | undefined,
): Finding {
  if (error === undefined) return { topic, verdict: 'cannot-serve', detail: 'a made-up token was accepted' };
  if (error.kind === 'unauthenticated')
    return { topic, verdict: 'as-assumed', detail: `answered ${said(error)}: UNAUTHENTICATED` };
  if (error.upstreamMessage !== undefined && error.upstreamMessage !== '') {
    return {
      topic,
      verdict: 'differs',
      detail: `answered ${said(error)}, which UPSTREAM_AUTH_ERROR_PATTERN does not match`,
      settings: {
        UPSTREAM_AUTH_ERROR_PATTERN: `${context.config.authErrorPattern.source}|${literalSource(error.upstreamMessage)}`,
      },
    };
  }
  return {
    topic,
    verdict: 'cannot-serve',
    detail: `answered ${said(error)}: the gateway cannot tell a dead session from it`,
  };
}

/** Runs the error probes (2 reads). */
export async function probeErrors(context: CheckContext, objectName: string | undefined): Promise<void> {
  const { client, credentials, learnt } = context;
  const readName = objectName ?? 'com.example.UpstreamCheck';
  const badToken = await failureOf(() =>
    client.getAll(madeUpCredentials(credentials), readName, [], 1, learnt.firstPageStart),
  );
  context.report(badTokenFinding(context, 'bad token (read)', badToken));

  const unknown = await failureOf(() =>
    client.getAll(credentials, 'com.example.upstreamcheck.NoSuchObjectType', [], 1, learnt.firstPageStart),
  );
  const topic = 'unknown object name';
  if (unknown === undefined) {
    context.report({ topic, verdict: 'as-assumed', detail: 'answered an empty page (no error to classify)' });
  } else if (unknown.kind === 'rejected_input') {
    context.report({ topic, verdict: 'as-assumed', detail: `answered ${said(unknown)}: BAD_USER_INPUT` });
  } else if (unknown.kind === 'unauthenticated' || unknown.kind === 'forbidden') {
    context.report({
      topic,
      verdict: 'cannot-serve',
      detail: `answered ${said(unknown)}, which the gateway reads as ${unknown.kind === 'forbidden' ? 'FORBIDDEN' : 'a dead session'}: narrow UPSTREAM_${unknown.kind === 'forbidden' ? 'FORBIDDEN' : 'AUTH'}_ERROR_PATTERN by hand`,
    });
  } else if (unknown.upstreamMessage !== undefined && unknown.upstreamMessage !== '') {
    context.report({
      topic,
      verdict: 'differs',
      detail: `answered ${said(unknown)}, which UPSTREAM_CALLER_ERROR_PATTERN does not match (UPSTREAM_ERROR)`,
      settings: {
        UPSTREAM_CALLER_ERROR_PATTERN: `${context.config.callerErrorPattern.source}|${literalSource(unknown.upstreamMessage)}`,
      },
    });
  } else {
    context.report({
      topic,
      verdict: 'cannot-serve',
      detail: `answered ${said(unknown)}, which the gateway cannot tell from a failure of its own or of the upstream`,
    });
  }
  context.report({
    topic: 'invalid pattern',
    verdict: 'cannot-tell',
    detail:
      'not sent by design: the gateway pattern guard refuses invalid patterns, so neither the check nor the gateway sends one',
  });
}
