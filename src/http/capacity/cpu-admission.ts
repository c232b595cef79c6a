/**
 * Admits a GraphQL request to its caller's share of the gateway's own work (`cpu-share.ts`) once its
 * context says who the caller is: the user of its session, else its client network (IPv6 by /64). The
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
export function cpuCallerOf(context: GraphQLContext): CpuCaller {
  const { session } = context;
  if (session === null) return { key: `n\u0000${clientNetwork(context.clientIp)}`, anonymous: true };
  let caller = callerOfSession.get(session);
  if (caller === undefined) {
    caller = userCpuCaller(userKeyOf(session));
    callerOfSession.set(session, caller);
  }
  return caller;
}

/**
 * Admits the request: `undefined` when it runs at once (no promise on this path), a refusal to send, or a
 * promise of either when it waits for its turn.
 */
export function admitToCpuShare(
  share: CpuShare,
  context: GraphQLContext,
  response: ServerResponse,
): CpuRefusalAnswer | Promise<CpuRefusalAnswer | undefined> | undefined {
  let admitted;
  try {
    admitted = share.admit(cpuCallerOf(context));
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
