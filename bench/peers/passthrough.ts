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
import { escapeRegex, readPeerSettings, valueAtPath } from './peer-schema.ts';
import type { PeerCredentials as Credentials, PeerRecord as UpstreamRecord } from './peer-schema.ts';
import { createUpstreamCaller } from './upstream-reads.ts';

const settings = readPeerSettings(process.env);
const { call, read } = createUpstreamCaller(settings, (message) => new Error(message));

function node(record: UpstreamRecord): { id: string; data: UpstreamRecord } {
  return { id: record._id, data: record };
}

/** The typed API's object names (`schema/objects/`), which W3T's query names by type. */
const ORDER = 'com.example.Order';
const CUSTOMER = 'com.example.Customer';

function typedCustomer(record: UpstreamRecord): Record<string, unknown> {
  return {
    id: record._id,
    name: record.name ?? null,
    email: record.email ?? null,
    mobile: record.mobile ?? null,
    city: valueAtPath(record, 'address.city') ?? null,
    country: valueAtPath(record, 'address.country') ?? null,
  };
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
    const refPath = String(variables.refPath);
    const refIds = page.data.map((order) => valueAtPath(order, refPath));
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
  // W3T by hand: the same two calls, each record cut to the typed fields the query selects.
  async TypedOrders(credentials, variables) {
    const first = Number(variables.first ?? 20);
    const page = await read('getAll', credentials, ORDER, undefined, first);
    const refIds = page.data.map((order) => valueAtPath(order, 'customer.id'));
    const unique = [...new Set(refIds.filter((id): id is string => typeof id === 'string'))];
    const byId = new Map<string, UpstreamRecord>();
    if (unique.length > 0) {
      const pattern = unique.map(escapeRegex).join('|');
      const refs = await read('getAll', credentials, CUSTOMER, pattern, unique.length);
      for (const record of refs.data) byId.set(record._id, record);
    }
    const nodes = page.data.map((order, index) => {
      const refId = refIds[index];
      const customer = typeof refId === 'string' ? byId.get(refId) : undefined;
      return {
        id: order._id,
        number: order.number ?? null,
        total: order.total ?? null,
        status: order.status ?? null,
        customer: customer === undefined ? null : typedCustomer(customer),
      };
    });
    return { orders: { totalCount: page.totalCount, nodes } };
  },
  async Save(credentials, variables) {
    const body = JSON.stringify({
      objectName: variables.objectName,
      data: variables.data,
      apiToken: credentials.token,
      applicationCode: settings.applicationCode,
      organizationCode: settings.organizationCode,
      callback: 'cb',
    });
    const answer = await call('/studio/jsonp/save?callback=cb', body);
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
server.listen(settings.port, '127.0.0.1', () => {
  console.log(`passthrough peer listening on ${String(settings.port)}`);
});
