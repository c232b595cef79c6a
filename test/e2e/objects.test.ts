import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gql, type TypedDocumentNode } from '@apollo/client';
import { useDemoSession } from '../support/list-objects.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import {
  MetadataDocument,
  ObjectDocument,
  ObjectsDocument,
  OrdersWithCustomersDocument,
  SaveDocument,
  UpdateDocument,
} from '../support/operations.ts';

const LOAN = 'com.example.LoanType';
const h = useHarness({ resetStatsEachTest: true });
const demo = useDemoSession(h, LOAN);

describe('object', () => {
  it('should read one object by id', async () => {
    const id = demo.ids[3]!;
    const result = await h
      .client(demo.token)
      .query({ query: ObjectDocument, variables: { objectName: LOAN, id } });
    expect(result.error).toBeUndefined();
    expect(result.data!.object).toMatchObject({ id, objectName: LOAN, data: { _id: id } });
    expect(result.data!.object!.data).toHaveProperty('loanType');
  });

  it('should read one object by filter', async () => {
    const id = demo.ids[5]!;
    const result = await h.client(demo.token).query({
      query: ObjectDocument,
      variables: { objectName: LOAN, filter: { criteria: [{ fieldName: '_id', value: id }] } },
    });
    expect(result.data!.object?.id).toBe(id);
  });

  it('should answer null, not an error, for an id that does not exist', async () => {
    const result = await h.client(demo.token).query({
      query: ObjectDocument,
      variables: { objectName: LOAN, id: '000000000000000000000000' },
    });
    expect(result.error).toBeUndefined();
    expect(result.data!.object).toBeNull();
  });

  it('should refuse both id and filter with BAD_USER_INPUT', async () => {
    const result = await h.client(demo.token).query({
      query: ObjectDocument,
      variables: { objectName: LOAN, id: 'x', filter: { criteria: [] } },
    });
    expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
  });

  it('should read N objects by id in one operation with ONE upstream call', async () => {
    const ids = demo.ids.slice(0, 8);
    const fields = ids.map((id, i) => `o${i}: object(objectName: "${LOAN}", id: "${id}") { id }`).join('\n');
    const query: TypedDocumentNode<Record<string, { id: string } | null>> = gql(`query Many { ${fields} }`);
    const result = await h.client(demo.token).query({ query });
    expect(ids.map((_, i) => result.data![`o${i}`]?.id)).toEqual(ids);
    expect(h.upstreamCalls()).toMatchObject({ getAll: 1, getObject: 0 });
    expect(h.totalUpstreamCalls()).toBe(1);
  });
});

describe('objects', () => {
  it('should page through every object exactly once, whatever the page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 13 }), { minLength: 1, maxLength: 6 }),
        async (sizes) => {
          const seen: string[] = [];
          let after: string | undefined;
          for (let i = 0; ; i++) {
            const first = sizes[i % sizes.length]!;
            const page = await h.client(demo.token).query({
              query: ObjectsDocument,
              variables: { objectName: LOAN, first, ...(after ? { after } : {}) },
            });
            const c = page.data!.objects;
            expect(c.totalCount).toBe(demo.ids.length);
            expect(c.nodes.length).toBeLessThanOrEqual(first);
            seen.push(...c.nodes.map((n) => n.id));
            if (!c.pageInfo.hasNextPage) break;
            after = c.pageInfo.endCursor!;
          }
          expect(seen).toEqual(demo.ids);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('should page backward with last/before', async () => {
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await h.client(demo.token).query({
        query: ObjectsDocument,
        variables: { objectName: LOAN, last: 7, ...(before ? { before } : {}) },
      });
      const c = page.data!.objects;
      seen.unshift(...c.nodes.map((n) => n.id));
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor!;
    }
    expect(seen).toEqual(demo.ids);
  });

  it('should serve a page that does not align with upstream pages in one upstream call', async () => {
    const first = await h
      .client(demo.token)
      .query({ query: ObjectsDocument, variables: { objectName: LOAN, first: 5 } });
    h.emulator.resetStats();
    const second = await h.client(demo.token).query({
      query: ObjectsDocument,
      variables: { objectName: LOAN, first: 7, after: first.data!.objects.pageInfo.endCursor! },
    });
    expect(second.data!.objects.nodes.map((n) => n.id)).toEqual(demo.ids.slice(5, 12));
    expect(h.totalUpstreamCalls()).toBe(1);
  });

  it('should filter with full-string regular expressions combined with AND', async () => {
    const orders = await h.client(demo.token).query({
      query: ObjectsDocument,
      variables: { objectName: 'com.example.Order', first: 1 },
    });
    const sample = orders.data!.objects.nodes[0]!.data as { status: string; customer: { id: string } };
    const filtered = await h.client(demo.token).query({
      query: ObjectsDocument,
      variables: {
        objectName: 'com.example.Order',
        first: 100,
        filter: {
          criteria: [
            { fieldName: 'customer.id', value: sample.customer.id },
            { fieldName: 'status', operator: 'matches', value: sample.status },
          ],
        },
      },
    });
    const c = filtered.data!.objects;
    expect(c.totalCount).toBeGreaterThan(0);
    for (const node of c.nodes) {
      expect(node.data).toMatchObject({ status: sample.status, customer: { id: sample.customer.id } });
    }
    const partial = await h.client(demo.token).query({
      query: ObjectsDocument,
      variables: {
        objectName: LOAN,
        first: 5,
        filter: { criteria: [{ fieldName: '_id', value: demo.ids[0]!.slice(0, 5) }] },
      },
    });
    expect(partial.data!.objects.totalCount).toBe(0);
  });

  it.each([
    ['first over the cap', { first: 101 }],
    ['a negative first', { first: -1 }],
    ['a cursor the gateway did not issue', { after: 'bm90LWEtY3Vyc29y' }],
    ['both first and last', { first: 2, last: 2 }],
  ])('should refuse %s with BAD_USER_INPUT', async (_case, args) => {
    const result = await h
      .client(demo.token)
      .query({ query: ObjectsDocument, variables: { objectName: LOAN, ...args } });
    expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
  });

  it('should resolve 50 orders with their customers in exactly 2 upstream calls', async () => {
    const result = await h
      .client(demo.token)
      .query({ query: OrdersWithCustomersDocument, variables: { first: 50 } });
    expect(result.error).toBeUndefined();
    const nodes = result.data!.objects.nodes;
    expect(nodes).toHaveLength(50);
    for (const order of nodes) expect(order.ref?.id).toBe(order.customerId);
    expect(h.upstreamCalls()).toMatchObject({ getAll: 2, getObject: 0 });
    expect(h.totalUpstreamCalls()).toBe(2);
  });
});

describe('metadata', () => {
  it('should pass the upstream metadata of an object through', async () => {
    const result = await h
      .client(demo.token)
      .query({ query: MetadataDocument, variables: { objectId: demo.ids[0]! } });
    expect(result.error).toBeUndefined();
    expect(result.data!.metadata).toMatchObject({ objectId: demo.ids[0], category: 'none' });
    expect(result.data!.metadata!.data).toEqual(expect.any(Object));
  });

  it('should answer null for an unknown object', async () => {
    const result = await h.client(demo.token).query({
      query: MetadataDocument,
      variables: { objectId: 'ffffffffffffffffffffffff' },
    });
    expect(result.error).toBeUndefined();
    expect(result.data!.metadata).toBeNull();
  });
});

describe('saveObject and updateObject', () => {
  it('should create, update and read back the current value', async () => {
    const client = h.client(demo.token);
    const saved = await client.mutate({
      mutation: SaveDocument,
      variables: { objectName: LOAN, data: { loanType: 'E2E', description: 'created by a test', rate: 1.5 } },
    });
    expect(saved.error).toBeUndefined();
    const id = saved.data!.saveObject.id;
    expect(saved.data!.saveObject.object?.data).toMatchObject({ _id: id, loanType: 'E2E', rate: 1.5 });

    const updated = await client.mutate({
      mutation: UpdateDocument,
      variables: { id, objectName: LOAN, data: { description: 'changed' } },
    });
    expect(updated.error).toBeUndefined();
    expect(updated.data!.updateObject.updatedFields).toEqual({ description: 'changed' });
    expect(updated.data!.updateObject.object?.data).toMatchObject({
      loanType: 'E2E',
      description: 'changed',
    });

    const read = await client.query({ query: ObjectDocument, variables: { objectName: LOAN, id } });
    expect(read.data!.object?.data).toMatchObject({ description: 'changed' });
  });

  it('should update through save when data carries an existing _id', async () => {
    const id = demo.ids[1]!;
    const saved = await h.client(demo.token).mutate({
      mutation: SaveDocument,
      variables: { objectName: LOAN, data: { _id: id, description: 'merged by save' } },
    });
    expect(saved.data!.saveObject.id).toBe(id);
    expect(saved.data!.saveObject.object?.data).toMatchObject({ _id: id, description: 'merged by save' });
    expect(saved.data!.saveObject.object?.data).toHaveProperty('loanType');
  });

  it('should answer NOT_FOUND when updating an object that does not exist', async () => {
    const result = await h.client(demo.token).mutate({
      mutation: UpdateDocument,
      variables: { id: '000000000000000000000000', objectName: LOAN, data: { description: 'x' } },
    });
    expect(errorCodes(result.error)).toEqual(['NOT_FOUND']);
  });

  it('should refuse an update that names no field, or changes _id, with BAD_USER_INPUT', async () => {
    for (const data of [{}, { _id: 'other' }]) {
      const result = await h.client(demo.token).mutate({
        mutation: UpdateDocument,
        variables: { id: demo.ids[0]!, objectName: LOAN, data },
      });
      expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
    }
    expect(h.upstreamCalls().update).toBe(0);
  });

  it('should treat an upstream rejection of the token on save (SAVE_ERR_401) as a dead session', async () => {
    const { token: stale } = await h.gateway.services.sessions.seal({
      username: 'demo',
      userId: null,
      applicationCode: 'demo',
      organizationCode: 'acme',
      apiToken: 'expired-upstream-token',
    });
    const result = await h
      .client(stale)
      .mutate({ mutation: SaveDocument, variables: { objectName: LOAN, data: { a: 1 } } });
    // Never accepted by the upstream, so its first refusal is FORBIDDEN (not a "log in again" loop); the
    // session is dead afterwards (README, "Sessions: what a client sees").
    expect(errorCodes(result.error)).toEqual(['FORBIDDEN']);
    const again = await h
      .client(stale)
      .mutate({ mutation: SaveDocument, variables: { objectName: LOAN, data: { a: 1 } } });
    expect(firstError(again.error).extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      reason: 'rejected_by_upstream',
    });
  });
});

describe('upstream failures', () => {
  it('should answer BAD_USER_INPUT naming the objectName argument and echoing the mistyped name', async () => {
    const result = await h.client(demo.token).query({
      query: ObjectsDocument,
      variables: { objectName: 'com.example.LoanTyp', first: 1 },
    });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      blame: 'caller',
      argumentName: 'objectName',
      objectName: 'com.example.LoanTyp',
    });
    expect(error.message).toContain('"com.example.LoanTyp"');
    expect(error.extensions.upstream).toMatchObject({ message: 'unknown object name' });
  });

  it('should answer UPSTREAM_UNAVAILABLE when the upstream fails, then recover', async () => {
    h.emulator.setFaults({ every: 1, mode: 'error500' });
    try {
      const result = await h
        .client(demo.token)
        .query({ query: ObjectsDocument, variables: { objectName: LOAN, first: 1 } });
      expect(errorCodes(result.error)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(JSON.stringify(result.error)).not.toContain('127.0.0.1');
    } finally {
      h.emulator.setFaults(undefined);
    }
    const ok = await h
      .client(demo.token)
      .query({ query: ObjectsDocument, variables: { objectName: LOAN, first: 1 } });
    expect(ok.error).toBeUndefined();
  });
});
