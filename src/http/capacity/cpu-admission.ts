/**
 * Admits a GraphQL request to its caller's share of the gateway's own work (`cpu-share.ts`) once its
 * context says who the caller is: the user of its session; else, for a login from a known device (a genuine
 * device token in the `deviceToken` variable), the account that token was issued for; else its client
 * network (IPv6 by /64). The
 * share's ticket is given back when the answer has been sent or the connection closed; a request still
 * waiting when its connection closes gives its place up. A refusal is answered at the HTTP edge, before
 * Apollo sees the request: HTTP 429 `TOO_MANY_REQUESTS` / `cpu_share` (the caller's own line, blame
 * `caller`) or 503 `GATEWAY_BUSY` / `cpu` (every line together, blame `gateway`), with `Retry-After`.
 */
import type { ServerResponse } from 'node:http';
import type { SessionClaims } from '../../auth/session.ts';
import { userKeyOf } from '../../auth/user-key.ts';
import { clientNetwork } from '../../client-address/client-network.ts';
import { ErrorCode } from '../../errors/error-codes.ts';
import { httpErrorBody, type HttpErrorBody } from '../../errors/http-error.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { CpuShareRefusal, isCpuWait, type CpuCaller, type CpuShare } from './cpu-share.ts';

/** How a refused request is answered. */
export interface CpuRefusalAnswer {
  status: 429 | 503;
  code: string;
  retryAfterSeconds: number;
  body: HttpErrorBody;
}

// One caller per opened session (the sealer caches the claims object): the key is built once per session,
// not once per request. A memo only: entries go with their sessions.
const callerOfSession = new WeakMap<SessionClaims, CpuCaller>();

/** The caller of a session's user (`userKeyOf`). */
export function userCpuCaller(userKey: string): CpuCaller {
  return { key: `u\u0000${userKey}`, anonymous: false };
}

/** Whose share a request takes: its session's user, else its client network. */
function cpuCallerOf(context: GraphQLContext): CpuCaller {
  const { session } = context;
  if (session === null) return { key: `n\u0000${clientNetwork(context.clientIp)}`, anonymous: true };
  let caller = callerOfSession.get(session);
  if (caller === undefined) {
    caller = userCpuCaller(userKeyOf(session));
    callerOfSession.set(session, caller);
  }
  return caller;
}

/** Longer strings are no device token (one is about 200 characters): not worth verifying. */
const MAX_DEVICE_TOKEN_LENGTH = 1_024;

/** The `deviceToken` variable of a POSTed request's parsed body, when it is a string short enough to be one. */
function deviceTokenVariable(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { variables } = body as { variables?: unknown };
  if (typeof variables !== 'object' || variables === null) return undefined;
  const token = (variables as { deviceToken?: unknown }).deviceToken;
  return typeof token === 'string' && token.length <= MAX_DEVICE_TOKEN_LENGTH ? token : undefined;
}

/**
 * Whose share a request takes, given its parsed `body`: {@link cpuCallerOf}, except that a request without
 * a session carrying a genuine device token is its account's (a user's share, never the anonymous callers'
 * total). A login from a known device is then not queued among any number of networks flooding: at a load
 * of 6, round-robin among 64 of them kept it waiting until refused at 5 s. The token's check costs the
 * loop a few tens of µs, charged to the client network that sent it, so that tokens made up cost their
 * sender's share. A token the caller holds is only ever its own account's (issued after the upstream
 * accepted a password for it), so it spends no one else's share.
 */
export async function cpuCallerOfRequest(
  share: CpuShare,
  context: GraphQLContext,
  body: unknown,
  deviceAccountOf: (token: string) => Promise<string | undefined>,
): Promise<CpuCaller> {
  const caller = cpuCallerOf(context);
  const token = context.session === null ? deviceTokenVariable(body) : undefined;
  if (token === undefined) return caller;
  const started = performance.now();
  const account = await deviceAccountOf(token);
  share.charge(caller, performance.now() - started);
  return account === undefined ? caller : { key: `d\u0000${account}`, anonymous: false };
}

/**
 * Admits the request of `caller` ({@link cpuCallerOfRequest}): `undefined` when it runs at once, a refusal
 * to send, or a promise of either when it waits for its turn.
 */
export function admitToCpuShare(
  share: CpuShare,
  caller: CpuCaller,
  response: ServerResponse,
): CpuRefusalAnswer | Promise<CpuRefusalAnswer | undefined> | undefined {
  let admitted;
  try {
    admitted = share.admit(caller);
  } catch (error) {
    return refusalAnswer(error);
  }
  if (!isCpuWait(admitted)) {
    response.once('close', admitted.done);
    return undefined;
  }
  const wait = admitted;
  const cancel = () => {
    wait.cancel();
  };
  response.once('close', cancel);
  return wait.ticket.then(
    (ticket) => {
      response.off('close', cancel);
      if (response.closed) ticket.done();
      else response.once('close', ticket.done);
      return undefined;
    },
    (error: unknown) => refusalAnswer(error),
  );
}

function refusalAnswer(error: unknown): CpuRefusalAnswer {
  if (!(error instanceof CpuShareRefusal)) throw error;
  if (error.why === 'full') {
    const code = ErrorCode.GATEWAY_BUSY;
    return {
      status: 503,
      code,
      retryAfterSeconds: 1,
      body: httpErrorBody(
        code,
        'The gateway holds as many requests waiting for its work as it may; retry in a second.',
        { reason: 'cpu', retryAfter: 1 },
      ),
    };
  }
  const code = ErrorCode.TOO_MANY_REQUESTS;
  const retryAfter = Math.max(1, error.retryAfterSeconds);
  return {
    status: 429,
    code,
    retryAfterSeconds: retryAfter,
    body: httpErrorBody(
      code,
      'You have used your share of the gateway recently and have as many requests waiting as you may; ' +
        'send fewer requests at once, or retry later.',
      { reason: 'cpu_share', retryAfter },
    ),
  };
}
