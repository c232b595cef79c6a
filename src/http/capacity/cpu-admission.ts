/**
 * Admits a GraphQL request to its caller's share of the gateway's own work (`cpu-share.ts`) once its
 * context says who the caller is: the user of its session, else its client network (IPv6 by /64). The
 * share's ticket is given back when the answer has been sent or the connection closed; a request still
 * waiting when its connection closes gives its place up.
 */
import type { ServerResponse } from 'node:http';
import type { SessionClaims } from '../../auth/session.ts';
import { userKeyOf } from '../../auth/user-key.ts';
import { clientNetwork } from '../../client-address/client-network.ts';
import { cpuBusy, cpuShareSpent } from '../../errors/graphql-errors.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { CpuShareRefusal, isCpuWait, type CpuCaller, type CpuShare } from './cpu-share.ts';

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
 * Admits the request: `undefined` when it runs at once (no promise on this path), else a promise that
 * settles when its turn comes. Throws (or rejects with) the refusal's GraphQL error.
 */
export function admitToCpuShare(
  share: CpuShare,
  context: GraphQLContext,
  response: ServerResponse,
): Promise<void> | undefined {
  let admitted;
  try {
    admitted = share.admit(cpuCallerOf(context));
  } catch (error) {
    throw refusalError(error);
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
    },
    (error: unknown) => {
      throw refusalError(error);
    },
  );
}

function refusalError(error: unknown): unknown {
  if (!(error instanceof CpuShareRefusal)) return error;
  return error.why === 'full' ? cpuBusy() : cpuShareSpent(error.retryAfterSeconds);
}
