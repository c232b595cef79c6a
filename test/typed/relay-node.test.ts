/**
 * `RELAY_NODE=true` against the real gateway and emulator, behind a proxy that records every upstream call:
 * `id` is a global id, `upstreamId` the upstream's `_id`, `node`/`nodes` answer in order through the
 * batching loader (the ids of one type in one upstream call), hostile ids are `BAD_USER_INPUT` costing no
 * upstream call, and the typed fields taking an `id` take the global id.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.ts';
import type { RunningEmulator } from '../../emulator/index.ts';
import { encodeGlobalId } from '../../src/typed/global-id.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import type { GraphqlAnswer } from '../support/post-graphql.ts';
import { forwardRequest } from '../support/servers/forward-request.ts';
import { listenOnLoopback, type Listening } from '../support/servers/listen-on-loopback.ts';

/** One upstream read as the proxy saw it. */
interface UpstreamRead {
  operation: string;
  objectName: string | null;
  filter: string | null;
}

let emulator: RunningEmulator;
let proxy: Listening;
let gateway: TestGateway;
let plain: TestGateway;
let auth: Record<string, string>;
const reads: UpstreamRead[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const target = new URL(emulator.url);
  proxy = await listenOnLoopback(
    createServer((req, res) => {
      const url = new URL(req.url ?? '/', target);
      if (url.pathname.startsWith('/studio/jsonp/')) {
        reads.push({
          operation: url.pathname.split('/')[3] ?? '',
          objectName: url.searchParams.get('objectName'),
          filter: url.searchParams.get('filterCommand'),
        });
      }
      forwardRequest(target, req, res);
    }),
  );
  gateway = await startGateway({ upstreamUrl: proxy.url, env: { RELAY_NODE: 'true' }, listen: false });
  plain = await startGateway({ upstreamUrl: proxy.url, listen: false });
  const login = await gateway.post(
    'mutation { login(username: "demo", password: "demo-password") { token } }',
  );
  auth = { authorization: `Bearer ${(login.data?.login as { token: string }).token}` };
});

afterAll(async () => {
  await gateway.close();
  await plain.close();
  await proxy.close();
  await emulator.close();
});

beforeEach(() => {
  reads.length = 0;
});

const query = (text: string, variables: Record<string, unknown> = {}) => gateway.post(text, variables, auth);

function codeOf(answer: GraphqlAnswer): unknown {
  return answer.errors?.[0]?.extensions?.code;
}

async function page(field: string, first: number): Promise<{ id: string; upstreamId: string }[]> {
  const answer = await query(`{ ${field}(first: ${String(first)}) { nodes { id upstreamId } } }`);
  return (answer.data?.[field] as { nodes: { id: string; upstreamId: string }[] }).nodes;
}

describe('RELAY_NODE=true', () => {
  it('should answer a global id as `id` and the upstream _id as `upstreamId`', async () => {
    const [customer] = await page('customers', 1);
    expect(customer?.id).toBe(encodeGlobalId(['Customer', customer?.upstreamId ?? '']));
    expect(customer?.id).not.toBe(customer?.upstreamId);
    const generic = await query(
      '{ objects(objectName: "com.example.Customer", first: 1) { nodes { id upstreamId objectName } } }',
    );
    const [object] = (generic.data?.objects as { nodes: { id: string; upstreamId: string }[] }).nodes;
    expect(object?.upstreamId).toBe(customer?.upstreamId);
    expect(object?.id).toBe(encodeGlobalId(['DataObject', 'com.example.Customer', object?.upstreamId ?? '']));
  });

  it('should answer nodes(ids:) in order, with the ids of one type in one upstream call', async () => {
    const customers = await page('customers', 3);
    const orders = await page('orders', 2);
    const missing = encodeGlobalId(['Customer', 'no-such-customer']);
    const ids = [orders[0], customers[0], customers[1], orders[1], customers[2]].map((n) => n?.id);
    reads.length = 0;
    const answer = await query(
      `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Customer { name } ... on Order { number } } }`,
      { ids: [...ids, missing] },
    );
    expect(answer.errors).toBeUndefined();
    const nodes = answer.data?.nodes as ({ __typename: string; id: string } | null)[];
    expect(nodes.map((n) => n?.id ?? null)).toEqual([...ids, null]);
    expect(nodes.map((n) => n?.__typename ?? null)).toEqual([
      'Order',
      'Customer',
      'Customer',
      'Order',
      'Customer',
      null,
    ]);
    // One getAll per type, each naming every id of that type (the loader's escaped alternation).
    expect(reads.map((read) => [read.operation, read.objectName]).sort()).toEqual([
      ['getAll', 'com.example.Customer'],
      ['getAll', 'com.example.Order'],
    ]);
    const customerRead = reads.find((read) => read.objectName === 'com.example.Customer');
    for (const c of customers) expect(customerRead?.filter).toContain(c.upstreamId);
    // The missing id is asked in the same call (escaped for `matches`: `no\-such\-customer`).
    expect(customerRead?.filter).toContain('such');
  });

  it('should refetch one object with node(id:), a generic DataObject included', async () => {
    const [customer] = await page('customers', 1);
    const typed = await query(
      'query ($id: ID!) { node(id: $id) { id ... on Customer { upstreamId name } } }',
      {
        id: customer?.id,
      },
    );
    expect(typed.data?.node).toMatchObject({ id: customer?.id, upstreamId: customer?.upstreamId });
    const generic = encodeGlobalId(['DataObject', 'com.example.Customer', customer?.upstreamId ?? '']);
    const object = await query('query ($id: ID!) { node(id: $id) { id ... on DataObject { objectName } } }', {
      id: generic,
    });
    expect(object.data?.node).toEqual({ id: generic, objectName: 'com.example.Customer' });
  });

  it.each([
    ['not base64url', '!!!'],
    ['an upstream id', 'c-000001'],
    ['a type the schema lacks', encodeGlobalId(['Invoice', 'i1'])],
    ['another version', Buffer.from('2:8:Customer:1:x').toString('base64url')],
    ['too long', 'A'.repeat(5000)],
  ])('should refuse %s as BAD_USER_INPUT without an upstream call', async (_case, id) => {
    const answer = await query('query ($id: ID!) { node(id: $id) { id } }', { id });
    expect(codeOf(answer)).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.extensions?.argumentName).toBe('id');
    const many = await query('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [encodeGlobalId(['Customer', 'c1']), id],
    });
    expect(codeOf(many)).toBe('BAD_USER_INPUT');
    expect(many.errors?.[0]?.message).toMatch(/^"ids\[1\]" is not a global id of this gateway \(/);
    expect(many.errors?.[0]?.extensions?.argumentName).toBe('ids');
    expect(reads).toEqual([]);
  });

  it('should bound nodes(ids:) to 100 ids', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => encodeGlobalId(['Customer', `c${String(i)}`]));
    const answer = await query('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(codeOf(answer)).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toContain('at most 100');
    expect(reads).toEqual([]);
  });

  it('should refuse ids naming more object types than MAX_UPSTREAM_CALLS_PER_REQUEST, before any call', async () => {
    const ids = Array.from({ length: 60 }, (_, i) =>
      encodeGlobalId(['DataObject', `com.example.Kind${String(i)}`, 'x']),
    );
    const answer = await query('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'MAX_UPSTREAM_CALLS_EXCEEDED',
      estimated: 60,
      max: 50,
    });
    expect(reads).toEqual([]);
  });

  it('should fail only the item whose read fails, and answer the others', async () => {
    const [customer] = await page('customers', 1);
    const unknown = encodeGlobalId(['DataObject', 'com.example.NoSuchKind', 'x']);
    const answer = await query('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [customer?.id, unknown],
    });
    expect(answer.data?.nodes).toEqual([{ id: customer?.id }, null]);
    expect(
      answer.errors?.map((error) => [(error as { path?: unknown }).path, error.extensions?.code]),
    ).toEqual([[['nodes', 1], 'BAD_USER_INPUT']]);
  });

  it('should need a session', async () => {
    const answer = await gateway.post('{ node(id: "x") { id } }');
    expect(codeOf(answer)).toBe('UNAUTHENTICATED');
  });

  it("should take the global id in the typed fields' id arguments, and refuse another type's", async () => {
    const [loanType] = await page('loanTypes', 1);
    const [customer] = await page('customers', 1);
    const read = await query('query ($id: ID!) { loanType(id: $id) { id upstreamId } }', {
      id: loanType?.id,
    });
    expect(read.data?.loanType).toEqual(loanType);
    const wrong = await query('query ($id: ID!) { loanType(id: $id) { id } }', { id: customer?.id });
    expect(codeOf(wrong)).toBe('BAD_USER_INPUT');
    expect(wrong.errors?.[0]?.message).toContain('the global id of a Customer, not of a LoanType');
    const updated = await query(
      'mutation ($id: ID!) { updateLoanType(id: $id, input: { description: "relay" }) { upstreamId object { id description } } }',
      { id: loanType?.id },
    );
    expect(updated.data?.updateLoanType).toEqual({
      upstreamId: loanType?.upstreamId,
      object: { id: loanType?.id, description: 'relay' },
    });
  });

  it('should leave the schema without Node, and `id` the upstream id, when RELAY_NODE is off', async () => {
    const answer = await plain.post('{ __type(name: "Node") { name } }');
    expect(answer.data).toEqual({ __type: null });
    const login = await plain.post(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    );
    const token = (login.data?.login as { token: string }).token;
    const customers = await plain.post(
      '{ customers(first: 1) { nodes { id } } }',
      {},
      {
        authorization: `Bearer ${token}`,
      },
    );
    const [customer] = (customers.data?.customers as { nodes: { id: string }[] }).nodes;
    expect((await page('customers', 1))[0]?.upstreamId).toBe(customer?.id);
  });
});
