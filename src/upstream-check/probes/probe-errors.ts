/**
 * How the upstream says "your token is no good" and "your input is wrong" (docs/design.md), read through
 * the gateway's own client so that its classification (`UPSTREAM_AUTH_ERROR_PATTERN`,
 * `UPSTREAM_CALLER_ERROR_PATTERN`, `UPSTREAM_FORBIDDEN_ERROR_PATTERN`) is what is checked.
 */
import { isUpstreamError, type UpstreamError } from '../../errors/upstream-error.ts';
import { randomBytes } from 'node:crypto';
import type { UpstreamCredentials } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import type { Finding } from './finding.ts';
import { learnMessagePattern, literalSource } from './message-pattern.ts';

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

/**
 * Three names no upstream serves, of different shapes and lengths, that differ in their first and in their
 * last character (in any case), so that where two messages naming them start to differ is where the name
 * starts, and where they differ no more is where it ends.
 */
export function madeUpObjectNames(): [string, string, string] {
  const random = () => randomBytes(4).toString('hex');
  return [
    `com.upstreamcheck.Missing${random()}x`,
    `ZzUpstreamCheck_${random()}_NoSuchTypeQ`,
    `net.upstreamcheck.n${random()}.absent.Object7`,
  ];
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

/**
 * An answer the gateway cannot read at all says nothing of how the upstream words its refusals: the rows of
 * the first read (JSONP wrapper, callback echo) tell whether its reads are readable, each on its own.
 */
const unreadable = (topic: string, error: UpstreamError): Finding => ({
  topic,
  verdict: 'cannot-tell',
  detail: `answered ${said(error)}, which the gateway cannot read (see the JSONP wrapper and callback echo rows)`,
});

/** Classifies the answer to a read with a made-up token. */
export function badTokenFinding(
  context: Pick<CheckContext, 'config'>,
  topic: string,
  error: UpstreamError | undefined,
): Finding {
  if (error === undefined) return { topic, verdict: 'cannot-serve', detail: 'a made-up token was accepted' };
  if (error.kind === 'bad_response') return unreadable(topic, error);
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

/** Runs the error probes (4 reads): a made-up token, then three made-up object names. */
export async function probeErrors(context: CheckContext, objectName: string | undefined): Promise<void> {
  const { client, credentials, learnt } = context;
  const readName = objectName ?? 'com.example.UpstreamCheck';
  const badToken = await failureOf(() =>
    client.getAll(madeUpCredentials(credentials), readName, [], 1, learnt.firstPageStart),
  );
  context.report(badTokenFinding(context, 'bad token (read)', badToken));
  context.report(await unknownNameFinding(context, badToken?.upstreamMessage));
  context.report({
    topic: 'invalid pattern',
    verdict: 'cannot-tell',
    detail:
      'not sent by design: the gateway pattern guard refuses invalid patterns, so neither the check nor the gateway sends one',
  });
}

/**
 * How the upstream refuses an object name it does not know, for any name: two made-up names first (the
 * pattern is learnt from both), then a third that the learnt pattern must match, as it must not match the
 * bad-token message. Sets `learnt.callerErrorPattern` to the pattern the gateway should use.
 */
async function unknownNameFinding(
  context: CheckContext,
  badTokenMessage: string | undefined,
): Promise<Finding> {
  const topic = 'unknown object name';
  const { client, credentials, config, learnt } = context;
  const read = (name: string) =>
    failureOf(() => client.getAll(credentials, name, [], 1, learnt.firstPageStart));
  const [firstName, secondName, thirdName] = madeUpObjectNames();
  const first = await read(firstName);
  if (first === undefined) {
    return { topic, verdict: 'as-assumed', detail: 'answered an empty page (no error to classify)' };
  }
  if (first.kind === 'bad_response') return unreadable(topic, first);
  if (first.kind === 'unauthenticated' || first.kind === 'forbidden') {
    const which = first.kind === 'forbidden' ? 'FORBIDDEN' : 'AUTH';
    return {
      topic,
      verdict: 'cannot-serve',
      detail: `answered ${said(first)}, which the gateway reads as ${first.kind === 'forbidden' ? 'FORBIDDEN' : 'a dead session'}: narrow UPSTREAM_${which}_ERROR_PATTERN by hand`,
    };
  }
  if (first.upstreamMessage === undefined || first.upstreamMessage === '') {
    return {
      topic,
      verdict: 'cannot-serve',
      detail: `answered ${said(first)}, which the gateway cannot tell from a failure of its own or of the upstream`,
    };
  }
  const others = [await read(secondName), await read(thirdName)];
  const messages = [first, ...others].map((e) => e?.upstreamMessage);
  if (first.kind === 'rejected_input' && others.every((e) => e?.kind === 'rejected_input')) {
    learnt.callerErrorPattern = config.callerErrorPattern;
    return { topic, verdict: 'as-assumed', detail: `answered ${said(first)}: BAD_USER_INPUT, for any name` };
  }
  const [, second] = messages;
  const learntSource = second === undefined ? undefined : learnMessagePattern(first.upstreamMessage, second);
  const learntPattern = learntSource === undefined ? undefined : new RegExp(learntSource, 'i');
  const holds =
    learntPattern !== undefined &&
    messages.every((m) => m !== undefined && learntPattern.test(m)) &&
    (badTokenMessage === undefined || !learntPattern.test(badTokenMessage));
  if (learntSource === undefined || !holds) {
    const then = messages.slice(1).map((m) => JSON.stringify(m ?? ''));
    return {
      topic,
      verdict: 'cannot-tell',
      detail: `answered ${said(first)}, then ${then.join(' and ')} for two other made-up names: no pattern matches these and not the bad-token answer; set UPSTREAM_CALLER_ERROR_PATTERN by hand`,
    };
  }
  const setting = `${config.callerErrorPattern.source}|${learntSource}`;
  learnt.callerErrorPattern = new RegExp(setting, 'i');
  const named = second !== first.upstreamMessage;
  return {
    topic,
    verdict: 'differs',
    detail: `answered ${said(first)}, which UPSTREAM_CALLER_ERROR_PATTERN does not match (UPSTREAM_ERROR); ${named ? 'the part added keeps the text around the name and matches any name (learnt from two made-up names, tried on a third)' : 'the part added is that answer, the same for three made-up names'}`,
    settings: { UPSTREAM_CALLER_ERROR_PATTERN: setting },
  };
}
