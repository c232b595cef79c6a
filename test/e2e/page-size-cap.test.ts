/**
 * An upstream that serves at most 25 records a call (`EMULATOR_MAX_PAGE_SIZE=25`), and one that writes
 * `totalCount` as text or leaves it out when nothing matches (`EMULATOR_TOTAL_COUNT`), against the real
 * gateway: with `UPSTREAM_MAX_PAGE_SIZE=25` every page, id batch and `nodes(ids:)` is whole and every record
 * comes exactly once; without it, the first cut page is a named `UPSTREAM_DIALECT_MISMATCH`, never a short
 * page; empty searches answer an empty connection and never open the breaker; a one-based upstream that
 * answers page 0 empty is a named `page_start` mismatch, never an empty list.
 */
import { describe, expect, it } from 'vitest';
import { dialectMismatch } from '../support/dialect-mismatch.ts';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import type { GraphqlAnswer } from '../support/post-graphql.ts';

const LOAN = 'com.example.LoanType';
const CAP = 25;

interface Connection {
  totalCount: number;
  nodes: { id: string }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

async function login(h: Harness, username = 'demo'): Promise<Record<string, string>> {
  const answer = await h.post(
    'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { token } }',
    { u: username, p: `${username}-password` },
  );
  const token = (answer.data?.login as { token: string } | undefined)?.token;
  if (token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
  return { authorization: `Bearer ${token}` };
}

const PAGE = `query ($objectName: String!, $first: Int, $after: String, $filter: FilterInput) {
  objects(objectName: $objectName, first: $first, after: $after, filter: $filter) {
    totalCount nodes { id } pageInfo { hasNextPage endCursor }
  }
}`;

async function readPage(
  h: Harness,
  auth: Record<string, string>,
  variables: Record<string, unknown>,
): Promise<GraphqlAnswer & { connection?: Connection }> {
  const answer = await h.post(PAGE, { objectName: LOAN, ...variables }, auth);
  return { ...answer, connection: answer.data?.objects as Connection | undefined };
}

/** Pages to the end with `sizes` in turn; answers the ids in order and every totalCount seen. */
async function pageThrough(h: Harness, auth: Record<string, string>, sizes: number[]) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let after: string | undefined;
  for (let i = 0; i < 100; i++) {
    const { errors, connection } = await readPage(h, auth, { first: sizes[i % sizes.length], after });
    expect(errors).toBeUndefined();
    if (connection === undefined) throw new Error('no connection');
    totals.add(connection.totalCount);
    ids.push(...connection.nodes.map((n) => n.id));
    if (!connection.pageInfo.hasNextPage) break;
    // Never a next page without a cursor to reach it.
    expect(connection.pageInfo.endCursor).not.toBeNull();
    after = connection.pageInfo.endCursor ?? undefined;
  }
  return { ids, totals };
}

describe('UPSTREAM_MAX_PAGE_SIZE=25 before an upstream capped at 25', () => {
  const h = useHarness({
    emulator: { maxPageSize: CAP },
    env: { UPSTREAM_MAX_PAGE_SIZE: String(CAP), RELAY_NODE: 'true' },
    listen: false,
  });

  it('should page through 31 records with first: 50 and mixes of sizes, every record exactly once', async () => {
    const auth = await login(h);
    const saved = await h.post(
      'mutation ($o: String!, $d: JSONObject!) { saveObject(objectName: $o, data: $d) { upstreamId } }',
      { o: LOAN, d: { loanType: 'Extra', rate: 1 } },
      auth,
    );
    expect(saved.errors).toBeUndefined();
    const all = await pageThrough(h, auth, [1]);
    expect(all.ids).toHaveLength(31);
    expect(new Set(all.ids).size).toBe(31);
    for (const sizes of [[50], [7], [7, 50, 3], [30, 26, 1], [24, 25, 26]]) {
      const run = await pageThrough(h, auth, sizes);
      expect(run.ids, `sizes ${sizes.join(', ')}`).toEqual(all.ids);
      expect([...run.totals]).toEqual([31]);
    }
    h.emulator.resetStats();
    const first = await readPage(h, auth, { first: 50 });
    expect(first.connection?.nodes).toHaveLength(31);
    expect(first.connection?.pageInfo.hasNextPage).toBe(false);
    // Two calls of 25: the page was split, not cut.
    expect(h.upstreamCalls().getAll).toBe(2);
  });

  it('should answer nodes(ids:) with 40 ids, and resolve the typed references of 60 orders', async () => {
    const auth = await login(h);
    const customers = await h.post('{ customers(first: 40) { nodes { id name } } }', {}, auth);
    expect(customers.errors).toBeUndefined();
    const list = (customers.data?.customers as { nodes: { id: string; name: string }[] }).nodes;
    expect(list).toHaveLength(40);
    const nodes = await h.post(
      'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Customer { name } } }',
      { ids: list.map((c) => c.id) },
      auth,
    );
    expect(nodes.errors).toBeUndefined();
    expect(nodes.data?.nodes).toEqual(list);

    const orders = await h.post('{ orders(first: 60) { nodes { number customer { id name } } } }', {}, auth);
    expect(orders.errors).toBeUndefined();
    const read = (orders.data?.orders as { nodes: { customer: { id: string } | null }[] }).nodes;
    expect(read).toHaveLength(60);
    expect(read.filter((o) => o.customer === null)).toEqual([]);
    expect(new Set(read.map((o) => o.customer?.id)).size).toBeGreaterThan(CAP);
  });
});

describe('an upstream capped at 25 before a gateway that assumes 1000', () => {
  const h = useHarness({ emulator: { maxPageSize: CAP }, env: { RELAY_NODE: 'true' }, listen: false });

  it('should answer a named UPSTREAM_DIALECT_MISMATCH naming page_size, never a short page', async () => {
    const auth = await login(h);
    const page = await readPage(h, auth, { first: 50 });
    expect(page.connection ?? null).toBeNull();
    expect(page.errors?.[0]?.extensions).toMatchObject(
      dialectMismatch('page_size', 'UPSTREAM_MAX_PAGE_SIZE'),
    );
    // A page the cap does not reach is whole.
    expect((await readPage(h, auth, { first: 20 })).connection?.nodes).toHaveLength(20);
  });

  it('should answer 40 ids with the mismatch, not with 15 nulls', async () => {
    const auth = await login(h);
    const customers = await h.post('{ customers(first: 20) { nodes { id } } }', {}, auth);
    const more = await h.post(
      `{ customers(first: 20, after: "${Buffer.from('o:19').toString('base64url')}") { nodes { id } } }`,
      {},
      auth,
    );
    const ids = [customers, more].flatMap((a) =>
      (a.data?.customers as { nodes: { id: string }[] }).nodes.map((n) => n.id),
    );
    expect(ids).toHaveLength(40);
    const nodes = await h.post('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids }, auth);
    expect((nodes.data?.nodes as unknown[] | undefined)?.filter((n) => n !== null)).toEqual([]);
    expect(nodes.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      assumption: 'page_size',
    });
  });
});

describe.each(['string', 'omit-when-empty'] as const)('EMULATOR_TOTAL_COUNT=%s', (totalCount) => {
  // Ten sick calls in the window would open the breaker: the empty searches below are twelve.
  const h = useHarness({
    emulator: { totalCount },
    env: { UPSTREAM_BREAKER_MIN_CALLS: '10' },
    listen: false,
  });
  const nothing = { criteria: [{ fieldName: '_id', value: 'no-such-loan' }] };

  it('should read lists with their totalCount, and empty searches as an empty connection', async () => {
    const auth = await login(h);
    const page = await readPage(h, auth, { first: 7 });
    expect(page.errors).toBeUndefined();
    expect(page.connection?.totalCount).toBe(30);
    expect(page.connection?.nodes).toHaveLength(7);
    const empty = await readPage(h, auth, { first: 7, filter: nothing });
    expect(empty.errors).toBeUndefined();
    expect(empty.connection).toEqual({
      totalCount: 0,
      nodes: [],
      pageInfo: { hasNextPage: false, endCursor: null },
    });
  });

  it('should leave the breaker closed after 12 empty searches from two users', async () => {
    const users = [await login(h, 'demo'), await login(h, 'admin')];
    for (let i = 0; i < 12; i++) {
      const empty = await readPage(h, users[i % 2]!, { first: 5, filter: nothing });
      expect(empty.errors).toBeUndefined();
      expect(empty.connection?.totalCount).toBe(0);
    }
    const after = await readPage(h, users[0]!, { first: 5 });
    expect(after.errors).toBeUndefined();
    expect(after.connection?.nodes).toHaveLength(5);
  });
});

describe('a one-based upstream that answers page 0 empty, before a gateway that counts from 0', () => {
  const h = useHarness({ emulator: { pageStart: 'page1', pageZero: 'empty' }, listen: false });

  it('should answer UPSTREAM_DIALECT_MISMATCH naming page_start, not an empty list', async () => {
    const auth = await login(h);
    const page = await readPage(h, auth, { first: 5 });
    expect(page.connection ?? null).toBeNull();
    expect(page.errors?.[0]?.extensions).toMatchObject(dialectMismatch('page_start', 'UPSTREAM_PAGE_START'));
  });
});
