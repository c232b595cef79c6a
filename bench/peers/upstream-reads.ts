/**
 * What the hand-written peers (P1, F1) and the bench's own emulator calls share: the read URL of the
 * upstream's JSONP API, and one undici `Pool` call with the JSONP wrapper sliced off (first `(` to last
 * `)`) and `JSON.parse`, the least a gateway can do per upstream call. Written once so the peers differ
 * only in what they measure.
 */
import { Pool } from 'undici';
import type { PeerRecord } from './peer-schema.ts';

/** Who reads, and which tenant: the query parameters every read carries. */
export interface ReadIdentity {
  username: string;
  token: string;
  organizationCode: string;
  applicationCode: string;
}

/** `getObject/` or `getAll`, the two read operations the workloads use. */
export type ReadOperation = 'getObject/' | 'getAll';

/** The path and query of a read: `_id matches idPattern` (or no criteria), optionally one page of `pageSize`. */
export function readPath(
  operation: ReadOperation,
  identity: ReadIdentity,
  objectName: string,
  idPattern: string | undefined,
  pageSize?: number,
): string {
  const query = new URLSearchParams({
    objectName,
    filterCommand: JSON.stringify({
      criteria: idPattern === undefined ? [] : [{ fieldName: '_id', operator: 'matches', value: idPattern }],
    }),
    username: identity.username,
    organizationCode: identity.organizationCode,
    applicationCode: identity.applicationCode,
    apiToken: identity.token,
    callback: 'cb',
  });
  if (pageSize !== undefined) {
    query.set('pageSize', String(pageSize));
    query.set('pageStart', '0');
  }
  return `/studio/jsonp/${operation}?${query.toString()}`;
}

/** The JSON between the first `(` and the last `)` of a JSONP answer (or the whole body when bare). */
export function unwrapJsonp(text: string): unknown {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  return JSON.parse(open >= 0 && close > open ? text.slice(open + 1, close) : text) as unknown;
}

/** An upstream answer as the peers read it. */
export interface UpstreamAnswer {
  status: string;
  data: PeerRecord[];
  totalCount: number;
  message?: string;
  savedObjectId?: string;
}

/** A peer's two upstream calls: any path (`call`, a POST when there is a body), and a read. */
export interface UpstreamCaller {
  call: (path: string, body?: string) => Promise<UpstreamAnswer>;
  read: (
    operation: ReadOperation,
    credentials: { username: string; token: string },
    objectName: string,
    idPattern: string | undefined,
    pageSize?: number,
  ) => Promise<UpstreamAnswer>;
}

/**
 * Calls the upstream of `settings` through one keep-alive pool, in the tenant of `settings`; `toError`
 * makes the peer's own error type.
 */
export function createUpstreamCaller(
  settings: { upstreamUrl: string; organizationCode: string; applicationCode: string },
  toError: (message: string) => Error,
): UpstreamCaller {
  const url = new URL(settings.upstreamUrl);
  const basePath = url.pathname.replace(/\/$/, '');
  const pool = new Pool(url.origin, { connections: 64, pipelining: 1 });
  const call = async (path: string, body?: string): Promise<UpstreamAnswer> => {
    const response = await pool.request({
      path: basePath + path,
      method: body === undefined ? 'GET' : 'POST',
      body,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw toError(`upstream answered HTTP ${response.statusCode}`);
    const answer = unwrapJsonp(text) as UpstreamAnswer;
    if (answer.status !== 'success') throw toError(answer.message ?? 'upstream error');
    return answer;
  };
  return {
    call,
    read: (operation, credentials, objectName, idPattern, pageSize) =>
      call(readPath(operation, { ...settings, ...credentials }, objectName, idPattern, pageSize)),
  };
}
