/**
 * The response cache end to end: the real gateway (CACHE=on) before the embedded emulator on loopback, read
 * through a real GraphQL client, the upstream's calls counted by the emulator. A second read is answered
 * from memory; a write is seen by the writer's next read at once; nothing crosses organizations, and
 * `PRIVATE` entries never cross accounts (two accounts of one organization with different rights: `demo`
 * in `acme`, `admin` in `acme` and `globex`); `PUBLIC` entries are shared within the organization only; a
 * stale entry answers while the upstream fails, marked, and never past its stale age.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import {
  LoginDocument,
  ObjectDocument,
  ObjectsDocument,
  SaveDocument,
  UpdateDocument,
} from '../support/operations.ts';
import { LoanTypeDocument } from '../support/typed-operations.ts';
import { OBJECTS_DIR } from '../../src/app/build-schema.ts';

const LOAN = 'com.example.LoanType';
const ORDER = 'com.example.Order';
const CUSTOMER = 'com.example.Customer';

const h = useHarness({
  env: {
    CACHE: 'on',
    // LoanType PRIVATE, Order PUBLIC, Customer fresh for one second only (the stale tests).
    CACHE_POLICIES: `${LOAN}=60:PRIVATE,${ORDER}=60:PUBLIC,${CUSTOMER}=1:PRIVATE`,
    CACHE_STALE_IF_ERROR_SECONDS: '3',
  },
  listen: false,
});

async function loginAs(harness: Harness, username: string, organizationCode?: string): Promise<string> {
  const result = await harness.client().mutate({
    mutation: LoginDocument,
    variables: {
      username,
      password: `${username}-password`,
      ...(organizationCode ? { organizationCode } : {}),
    },
  });
  const token = result.data?.login.token;
  if (token === undefined) throw new Error(`login of ${username} failed: ${JSON.stringify(result.error)}`);
  return token;
}

async function save(token: string, objectName: string, data: Record<string, unknown>): Promise<string> {
  const result = await h.client(token).mutate({ mutation: SaveDocument, variables: { objectName, data } });
  const id = result.data?.saveObject.id;
  if (id === undefined) throw new Error(`save failed: ${JSON.stringify(result.error)}`);
  return id;
}

async function read(token: string, objectName: string, id: string) {
  const result = await h.client(token).query({ query: ObjectDocument, variables: { objectName, id } });
  expect(result.error).toBeUndefined();
  return result.data?.object ?? null;
}

/** Upstream reads (`getObject` and `getAll`) the emulator served during `run`. */
async function upstreamReadsDuring(run: () => Promise<unknown>): Promise<number> {
  const reads = () => {
    const calls = h.upstreamCalls();
    return (calls.getObject ?? 0) + (calls.getAll ?? 0);
  };
  const before = reads();
  await run();
  return reads() - before;
}

describe('the response cache', () => {
  it('answers a second read from memory, through the generic and the typed API alike', async () => {
    const demo = await h.login();
    const id = await save(demo, LOAN, { loanType: 'Cached', rate: 1.5 });
    expect(await upstreamReadsDuring(() => read(demo, LOAN, id))).toBe(1);
    expect(await upstreamReadsDuring(() => read(demo, LOAN, id))).toBe(0);
    const typed = await upstreamReadsDuring(async () => {
      const result = await h.client(demo).query({ query: LoanTypeDocument, variables: { id } });
      expect(result.data?.loanType?.loanType).toBe('Cached');
    });
    expect(typed).toBe(0);
    const metrics = await (await h.fetch('/metrics')).text();
    expect(metrics).toMatch(
      /gateway_cache_events_total\{object_type="com\.example\.LoanType",event="hit"\} [1-9]/,
    );
  });

  it("shows the writer's own update on the next read, at once", async () => {
    const demo = await h.login();
    const id = await save(demo, LOAN, { loanType: 'Before', rate: 1 });
    expect((await read(demo, LOAN, id))?.data).toMatchObject({ loanType: 'Before' });
    const updated = await h.client(demo).mutate({
      mutation: UpdateDocument,
      variables: { objectName: LOAN, id, data: { loanType: 'After' } },
    });
    expect(updated.error).toBeUndefined();
    expect((await read(demo, LOAN, id))?.data).toMatchObject({ loanType: 'After' });
  });

  it('answers a page from memory, and shows a write to one of its objects on the next read', async () => {
    const demo = await h.login();
    const ids = [
      await save(demo, LOAN, { loanType: 'Paged', rate: 1 }),
      await save(demo, LOAN, { loanType: 'Paged', rate: 2 }),
    ];
    const page = async () => {
      const result = await h.client(demo).query({
        query: ObjectsDocument,
        variables: {
          objectName: LOAN,
          filter: { criteria: [{ fieldName: 'loanType', operator: 'equals', value: 'Paged' }] },
          first: 10,
        },
      });
      expect(result.error).toBeUndefined();
      return result.data?.objects.nodes.map((node) => node.data as { rate: number }) ?? [];
    };
    expect(await page()).toHaveLength(2);
    expect(await upstreamReadsDuring(page)).toBe(0);
    // A write to one of its objects makes the page miss: one upstream page read, showing the write.
    await h.client(demo).mutate({
      mutation: UpdateDocument,
      variables: { objectName: LOAN, id: ids[0] ?? '', data: { rate: 7 } },
    });
    let rates: number[] = [];
    expect(await upstreamReadsDuring(async () => (rates = (await page()).map((d) => d.rate)))).toBe(1);
    expect(rates.sort()).toEqual([2, 7]);
  });

  it('never shares a PRIVATE entry between two accounts of one organization', async () => {
    const demo = await h.login();
    const admin = await loginAs(h, 'admin', 'acme');
    const id = await save(demo, LOAN, { loanType: 'Mine', rate: 2 });
    await read(demo, LOAN, id);
    expect(await upstreamReadsDuring(() => read(admin, LOAN, id))).toBe(1);
    expect(await upstreamReadsDuring(() => read(admin, LOAN, id))).toBe(0);
  });

  it('keeps a PRIVATE entry to the account, whichever of its names logged in', async () => {
    const byName = await h.login('JSON');
    const form = await h.client().mutate({
      mutation: LoginDocument,
      variables: { username: '5550100', password: 'demo-password', method: 'FORM' },
    });
    const byMobile = form.data?.login.token ?? '';
    const id = await save(byName, LOAN, { loanType: 'One account', rate: 4 });
    expect(await upstreamReadsDuring(() => read(byName, LOAN, id))).toBe(1);
    expect(await upstreamReadsDuring(() => read(byMobile, LOAN, id))).toBe(0);
  });

  it('shares a PUBLIC entry within the organization, never with another', async () => {
    const demo = await h.login();
    const admin = await loginAs(h, 'admin', 'acme');
    const ops = await loginAs(h, 'ops', 'globex');
    const adminInGlobex = await loginAs(h, 'admin', 'globex');
    const id = await save(demo, ORDER, { number: 'ORD-CACHE-1', total: 10 });
    expect(await upstreamReadsDuring(() => read(demo, ORDER, id))).toBe(1);
    expect(await upstreamReadsDuring(() => read(admin, ORDER, id))).toBe(0);
    // Another organization reads upstream, and does not see acme's order.
    let seen: unknown;
    expect(await upstreamReadsDuring(async () => (seen = await read(ops, ORDER, id)))).toBe(1);
    expect(seen).toBeNull();
    expect(await upstreamReadsDuring(async () => (seen = await read(adminInGlobex, ORDER, id)))).toBe(1);
    expect(seen).toBeNull();
  });

  it('serves no PUBLIC entry to an account that only claims the organization', async () => {
    const demo = await h.login();
    // `ops` may log in naming acme (the login does not check it), but the upstream refuses its reads there.
    const claimsAcme = await loginAs(h, 'ops', 'acme');
    const id = await save(demo, ORDER, { number: 'ORD-CACHE-4', total: 5 });
    await read(demo, ORDER, id);
    const result = await h
      .client(claimsAcme)
      .query({ query: ObjectDocument, variables: { objectName: ORDER, id } });
    expect(result.data?.object ?? null).toBeNull();
    expect(result.error).toBeDefined();
  });

  it("a write in one organization leaves another's entries, and refreshes its own", async () => {
    const demo = await h.login();
    const ops = await loginAs(h, 'ops', 'globex');
    const acmeOrder = await save(demo, ORDER, { number: 'ORD-CACHE-2', total: 1 });
    const globexOrder = await save(ops, ORDER, { number: 'ORD-CACHE-3', total: 1 });
    await read(demo, ORDER, acmeOrder);
    await read(ops, ORDER, globexOrder);
    await h.client(ops).mutate({
      mutation: UpdateDocument,
      variables: { objectName: ORDER, id: globexOrder, data: { total: 2 } },
    });
    expect(await upstreamReadsDuring(() => read(demo, ORDER, acmeOrder))).toBe(0);
    let seen: { data?: unknown } | null = null;
    expect(await upstreamReadsDuring(async () => (seen = await read(ops, ORDER, globexOrder)))).toBe(1);
    expect(seen).toMatchObject({ data: { total: 2 } });
  });

  it('answers a stale entry while the upstream fails, marked; never past its stale age', async () => {
    const demo = await h.login();
    const id = await save(demo, CUSTOMER, { name: 'Stale Customer' });
    const query = 'query($id: ID) { object(objectName: "com.example.Customer", id: $id) { id data } }';
    const auth = { authorization: `Bearer ${demo}` };
    const fresh = await h.post(query, { id }, auth);
    expect(fresh.errors).toBeUndefined();
    // Past its one second of maxAge, within its three of stale age.
    await sleep(1_300);
    h.emulator.setFaults({ every: 1, mode: 'error500', operations: ['getAll', 'getObject'] });
    try {
      const stale = await h.post(query, { id }, auth);
      expect(stale.errors).toBeUndefined();
      expect(stale.data).toEqual(fresh.data);
      expect((stale as unknown as { extensions?: unknown }).extensions).toMatchObject({
        cache: { stale: true, ageSeconds: expect.any(Number) as unknown },
      });
      expect(stale.headers.get('x-gateway-cache')).toBe('stale');
      // Past maxAge and stale age together (1 + 3 s): the upstream's failure is the answer.
      await sleep(3_000);
      const failed = await h.post(query, { id }, auth);
      expect(failed.errors?.length).toBeGreaterThan(0);
      expect(failed.headers.get('x-gateway-cache')).toBeNull();
    } finally {
      h.emulator.setFaults(undefined);
    }
  });

  it('never answers a write from a stale entry', async () => {
    const demo = await h.login();
    const id = await save(demo, CUSTOMER, { name: 'Written' });
    h.emulator.setFaults({ every: 1, mode: 'error500', operations: ['update'] });
    try {
      const result = await h.client(demo).mutate({
        mutation: UpdateDocument,
        variables: { objectName: CUSTOMER, id, data: { name: 'Never' } },
      });
      expect(result.error).toBeDefined();
    } finally {
      h.emulator.setFaults(undefined);
    }
  });
});

describe('the response cache, as the shipped SDL declares it', () => {
  // schema/objects/loan-type.graphql: `@cacheControl(maxAge: 60, scope: PUBLIC)`, no CACHE_POLICIES.
  const shipped = useHarness({ env: { CACHE: 'on', OBJECT_TYPES_DIR: OBJECTS_DIR }, listen: false });

  it("caches LoanType by its SDL's @cacheControl, shared within the organization", async () => {
    const demo = await shipped.login();
    const admin = await loginAs(shipped, 'admin', 'acme');
    const saved = await shipped.client(demo).mutate({
      mutation: SaveDocument,
      variables: { objectName: LOAN, data: { loanType: 'Shipped', rate: 3 } },
    });
    const id = saved.data?.saveObject.id ?? '';
    const readAs = (token: string) =>
      shipped.client(token).query({ query: LoanTypeDocument, variables: { id } });
    const upstreamReads = () =>
      (shipped.upstreamCalls().getAll ?? 0) + (shipped.upstreamCalls().getObject ?? 0);
    await readAs(demo);
    // admin's first read in acme goes upstream (it proves admin may read there), the next is shared.
    await readAs(admin);
    const before = upstreamReads();
    expect((await readAs(admin)).data?.loanType?.loanType).toBe('Shipped');
    expect((await readAs(demo)).data?.loanType?.loanType).toBe('Shipped');
    expect(upstreamReads()).toBe(before);
  });
});
