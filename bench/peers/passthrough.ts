/**
 * Peer P1: the floor any gateway pays. node:http in, undici `Pool` (keep-alive) to the upstream, the JSONP
 * wrapper sliced off between the first `(` and the last `)`, `JSON.parse`, JSON out. No GraphQL: it takes
 * the same request body as the GraphQL peers but only reads `operationName` and `variables` from it, and
 * answers the same GraphQL-shaped JSON, so the load generator sends and checks identical bytes for all.
 *
 * Env: `PORT`, `UPSTREAM_URL`, `APPLICATION_CODE`, `ORGANIZATION_CODE`. Credentials per request from the
 * `x-upstream-token` and `x-upstream-username` headers, as for P2 and P3.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';

interface Credentials {
  token: string;
  username: string;
}

interface UpstreamRecord {
  _id: string;
  [field: string]: unknown;
}

interface ReadAnswer {
  status: string;
  data: UpstreamRecord[];
  totalCount: number;
  message?: string;
}

const upstreamUrl = new URL(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:4010');
const applicationCode = process.env.APPLICATION_CODE ?? 'demo';
const organizationCode = process.env.ORGANIZATION_CODE ?? 'acme';
const pool = new Pool(upstreamUrl.origin, { connections: 64, pipelining: 1 });
const basePath = upstreamUrl.pathname.replace(/\/$/, '');

/** The JSON between the first `(` and the last `)` of a JSONP answer (or the whole body when bare). */
function unwrap(text: string): unknown {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  return JSON.parse(open >= 0 && close > open ? text.slice(open + 1, close) : text) as unknown;
}

async function call(path: string, method: 'GET' | 'POST', body?: string): Promise<unknown> {
  const response = await pool.request({
    path: basePath + path,
    method,
    body,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`upstream answered HTTP ${response.statusCode}`);
  return unwrap(text);
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function read(
  operation: 'getObject/' | 'getAll',
  credentials: Credentials,
  objectName: string,
  idPattern: string | undefined,
  pageSize?: number,
): Promise<ReadAnswer> {
  const query = new URLSearchParams({
    objectName,
    filterCommand: JSON.stringify({
      criteria: idPattern === undefined ? [] : [{ fieldName: '_id', operator: 'matches', value: idPattern }],
    }),
    username: credentials.username,
    organizationCode,
    applicationCode,
    apiToken: credentials.token,
    callback: 'cb',
  });
  if (pageSize !== undefined) {
    query.set('pageSize', String(pageSize));
    query.set('pageStart', '0');
  }
  const answer = (await call(`/studio/jsonp/${operation}?${query.toString()}`, 'GET')) as ReadAnswer;
  if (answer.status !== 'success') throw new Error(answer.message ?? 'upstream error');
  return answer;
}

function valueAt(record: unknown, path: string[]): unknown {
  let value = record;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function node(record: UpstreamRecord): { id: string; data: UpstreamRecord } {
  return { id: record._id, data: record };
}

type Variables = Record<string, unknown>;
type Handler = (credentials: Credentials, variables: Variables) => Promise<unknown>;

/** One handler per benchmark operation, chosen by the request's `operationName`. */
const handlers: Record<string, Handler | undefined> = {
  async Object(credentials, variables) {
    const id = String(variables.id);
    const answer = await read('getObject/', credentials, String(variables.objectName), escapeRegex(id));
    const record = answer.data[0];
    return { object: record === undefined ? null : node(record) };
  },
  async Objects(credentials, variables) {
    const first = Number(variables.first ?? 20);
    const answer = await read('getAll', credentials, String(variables.objectName), undefined, first);
    return { objects: { totalCount: answer.totalCount, nodes: answer.data.map(node) } };
  },
  // W3 by hand: the page, then one batched read of every referenced customer (two upstream calls).
  async OrdersWithCustomers(credentials, variables) {
    const first = Number(variables.first ?? 20);
    const page = await read('getAll', credentials, String(variables.objectName), undefined, first);
    const refPath = String(variables.refPath).split('.');
    const refIds = page.data.map((order) => valueAt(order, refPath));
    const unique = [...new Set(refIds.filter((id): id is string => typeof id === 'string'))];
    const byId = new Map<string, UpstreamRecord>();
    if (unique.length > 0) {
      const pattern = unique.map(escapeRegex).join('|');
      const refs = await read('getAll', credentials, String(variables.refObjectName), pattern, unique.length);
      for (const record of refs.data) byId.set(record._id, record);
    }
    const nodes = page.data.map((order, index) => {
      const refId = refIds[index];
      const ref = typeof refId === 'string' ? byId.get(refId) : undefined;
      return { ...node(order), ref: ref === undefined ? null : node(ref) };
    });
    return { objects: { totalCount: page.totalCount, nodes } };
  },
  async Save(credentials, variables) {
    const body = JSON.stringify({
      objectName: variables.objectName,
      data: variables.data,
      apiToken: credentials.token,
      applicationCode,
      organizationCode,
      callback: 'cb',
    });
    const answer = (await call('/studio/jsonp/save?callback=cb', 'POST', body)) as {
      status: string;
      savedObjectId?: string;
      message?: string;
    };
    if (answer.status !== 'success') throw new Error(answer.message ?? 'upstream error');
    return { saveObject: { id: answer.savedObjectId } };
  },
};

function send(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET' && req.url === '/healthz') {
    send(res, 200, { status: 'ok' });
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    operationName?: string;
    variables?: Variables;
  };
  const handler = handlers[request.operationName ?? ''];
  if (handler === undefined) {
    send(res, 400, { errors: [{ message: 'unknown operationName' }] });
    return;
  }
  const credentials = {
    token: String(req.headers['x-upstream-token'] ?? ''),
    username: String(req.headers['x-upstream-username'] ?? ''),
  };
  send(res, 200, { data: await handler(credentials, request.variables ?? {}) });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    send(res, 200, { data: null, errors: [{ message: error instanceof Error ? error.message : 'failed' }] });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 4101), '127.0.0.1', () => {
  console.log(`passthrough peer listening on ${String(process.env.PORT)}`);
});
