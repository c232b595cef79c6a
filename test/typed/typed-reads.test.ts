/**
 * The typed API end to end: a real Apollo Client against the real gateway on the emulator's demo types,
 * with the upstream calls counted.
 */
import { gql, type TypedDocumentNode } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { describe, expect, it } from 'vitest';
import { useDemoSession } from '../support/list-objects.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import { ObjectDocument, ObjectsDocument, SaveDocument } from '../support/operations.ts';
import {
  CustomerDocument,
  CustomersDocument,
  LoanTypeDocument,
  LoanTypesDocument,
  OrderDocument,
  OrdersDocument,
  withoutTypename,
} from '../support/typed-operations.ts';

const LOAN = 'com.example.LoanType';
const CUSTOMER = 'com.example.Customer';
const ORDER = 'com.example.Order';
const h = useHarness({ resetStatsEachTest: true });
const demo = useDemoSession(h, LOAN);

async function generic(objectName: string, id: string): Promise<Record<string, unknown>> {
  const result = await h.client(demo.token).query({ query: ObjectDocument, variables: { objectName, id } });
  return result.data!.object!.data;
}

describe('typed reads', () => {
  it('should read a loan type by id with its declared fields, agreeing with the generic view', async () => {
    const id = demo.ids[4]!;
    const typed = await h.client(demo.token).query({ query: LoanTypeDocument, variables: { id } });
    expect(typed.error).toBeUndefined();
    const data = await generic(LOAN, id);
    expect(withoutTypename(typed.data!.loanType)).toEqual({
      id: data._id,
      loanType: data.loanType,
      description: data.description,
      rate: data.rate,
    });
  });

  it('should read nested record paths declared with @field, agreeing with the generic view', async () => {
    const page = await h.client(demo.token).query({ query: CustomersDocument, variables: { first: 12 } });
    expect(page.error).toBeUndefined();
    for (const customer of page.data!.customers.nodes) {
      const data = (await generic(CUSTOMER, customer!.id)) as Record<string, unknown> & {
        address: { city: string; country: string };
      };
      expect(withoutTypename(customer)).toEqual({
        id: data._id,
        name: data.name,
        email: data.email,
        mobile: data.mobile,
        city: data.address.city,
        country: data.address.country,
      });
    }
  });

  it('should read a customer by id with its @field paths', async () => {
    const page = await h.client(demo.token).query({ query: CustomersDocument, variables: { first: 1 } });
    const first = page.data!.customers.nodes[0]!;
    const one = await h.client(demo.token).query({ query: CustomerDocument, variables: { id: first.id } });
    expect(one.data!.customer).toEqual(first);
  });

  it('should answer null, not an error, for an id that does not exist', async () => {
    const result = await h
      .client(demo.token)
      .query({ query: LoanTypeDocument, variables: { id: '000000000000000000000000' } });
    expect(result.error).toBeUndefined();
    expect(result.data!.loanType).toBeNull();
  });
});

describe('typed pages', () => {
  /** One page of `loanTypes` read as the demo user. */
  const loanTypesPage = async (variables: {
    first?: number;
    last?: number;
    after?: string;
    before?: string;
  }) => (await h.client(demo.token).query({ query: LoanTypesDocument, variables })).data!.loanTypes;

  it('should page forward through every loan type in the generic order, with totalCount', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const c = await loanTypesPage({ first: 7, ...(after ? { after } : {}) });
      expect(c.totalCount).toBe(demo.ids.length);
      expect(c.edges.map((e) => e.node?.id)).toEqual(c.nodes.map((n) => n?.id));
      seen.push(...c.nodes.map((n) => n!.id));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor!;
    }
    expect(seen).toEqual(demo.ids);
  });

  it('should page backward with last/before', async () => {
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const c = await loanTypesPage({ last: 9, ...(before ? { before } : {}) });
      seen.unshift(...c.nodes.map((n) => n!.id));
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor!;
    }
    expect(seen).toEqual(demo.ids);
  });

  it('should refuse a page over the cap with BAD_USER_INPUT, as the generic API does', async () => {
    const result = await h.client(demo.token).query({ query: LoanTypesDocument, variables: { first: 101 } });
    expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('typed filters', () => {
  it('should filter with a full-string regular expression', async () => {
    const result = await h.client(demo.token).query({
      query: LoanTypesDocument,
      variables: { first: 100, where: { loanType: { matches: 'Home.*' } } },
    });
    const nodes = result.data!.loanTypes.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    expect(result.data!.loanTypes.totalCount).toBe(nodes.length);
    for (const node of nodes) expect(node!.loanType).toMatch(/^Home/);
  });

  it('should combine conditions with AND, references by id, and agree with the generic filter', async () => {
    const sample = await h.client(demo.token).query({ query: OrdersDocument, variables: { first: 1 } });
    const order = sample.data!.orders.nodes[0]!;
    const typed = await h.client(demo.token).query({
      query: OrdersDocument,
      variables: {
        first: 100,
        where: { customer: { id: { equals: order.customer!.id } }, status: { equals: order.status! } },
      },
    });
    const genericPage = await h.client(demo.token).query({
      query: ObjectsDocument,
      variables: {
        objectName: ORDER,
        first: 100,
        filter: {
          criteria: [
            { fieldName: 'customer.id', value: order.customer!.id },
            { fieldName: 'status', value: order.status! },
          ],
        },
      },
    });
    const nodes = typed.data!.orders.nodes;
    expect(nodes.map((n) => n!.id)).toEqual(genericPage.data!.objects.nodes.map((n) => n.id));
    expect(nodes.length).toBeGreaterThan(0);
    for (const node of nodes)
      expect(node).toMatchObject({ status: order.status, customer: { id: order.customer!.id } });
  });

  it('should treat `equals` as a literal, regular-expression characters included', async () => {
    const odd = 'Odd (a+b).* loan';
    const saved = await h
      .client(demo.token)
      .mutate({ mutation: SaveDocument, variables: { objectName: LOAN, data: { loanType: odd } } });
    const result = await h.client(demo.token).query({
      query: LoanTypesDocument,
      variables: { first: 10, where: { loanType: { equals: odd } } },
    });
    expect(result.data!.loanTypes.nodes.map((n) => n!.id)).toEqual([saved.data!.saveObject.id]);
  });

  it('should filter on id and on a nested @field path', async () => {
    const byId = await h
      .client(demo.token)
      .query({ query: LoanTypesDocument, variables: { where: { id: { equals: demo.ids[2]! } } } });
    expect(byId.data!.loanTypes.nodes.map((n) => n!.id)).toEqual([demo.ids[2]]);
    const pt = await h
      .client(demo.token)
      .query({ query: CustomersDocument, variables: { first: 100, where: { country: { equals: 'PT' } } } });
    expect(pt.data!.customers.totalCount).toBeGreaterThan(0);
    for (const c of pt.data!.customers.nodes) expect(c!.country).toBe('PT');
  });

  it('should refuse an unknown where field as a GraphQL validation error, before any upstream call', async () => {
    const query: TypedDocumentNode<unknown> = gql`
      {
        loanTypes(where: { colour: { matches: "red" } }) {
          totalCount
        }
      }
    `;
    const result = await h.client(demo.token).query({ query });
    expect(errorCodes(result.error)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(firstError(result.error).message).toContain('colour');
    expect(h.totalUpstreamCalls()).toBe(0);
  });
});

describe('typed references', () => {
  it('should resolve 50 orders with their customers in exactly 2 upstream calls', async () => {
    const result = await h.client(demo.token).query({ query: OrdersDocument, variables: { first: 50 } });
    expect(result.error).toBeUndefined();
    const nodes = result.data!.orders.nodes;
    expect(nodes).toHaveLength(50);
    for (const order of nodes) expect(order!.customer?.name).toEqual(expect.any(String));
    expect(h.upstreamCalls()).toMatchObject({ getAll: 2, getObject: 0 });
    expect(h.totalUpstreamCalls()).toBe(2);
  });

  it('should answer null for a reference to a missing object, and nothing else breaks', async () => {
    const saved = await h.client(demo.token).mutate({
      mutation: SaveDocument,
      variables: {
        objectName: ORDER,
        data: { number: 'ORD-DANGLING', total: 5, customer: { id: 'ffffffffffffffffffffffff' } },
      },
    });
    const result = await h
      .client(demo.token)
      .query({ query: OrderDocument, variables: { id: saved.data!.saveObject.id } });
    expect(result.error).toBeUndefined();
    expect(withoutTypename(result.data!.order)).toEqual({
      id: saved.data!.saveObject.id,
      number: 'ORD-DANGLING',
      total: 5,
      status: null,
      customer: null,
    });
  });
});

describe('values checked against the declared types', () => {
  it('should make a string where Float is declared a clear field error, other fields intact', async () => {
    const saved = await h.client(demo.token).mutate({
      mutation: SaveDocument,
      variables: {
        objectName: LOAN,
        data: { loanType: 'Mismatch', description: 'rate is text', rate: 'high' },
      },
    });
    const id = saved.data!.saveObject.id;
    const result = await h.client(demo.token).query({ query: LoanTypeDocument, variables: { id } });
    expect(withoutTypename(result.data!.loanType)).toEqual({
      id,
      loanType: 'Mismatch',
      description: 'rate is text',
      rate: null,
    });
    expect(CombinedGraphQLErrors.is(result.error) && result.error.errors).toEqual([
      expect.objectContaining({
        message: `LoanType.rate: object ${id} holds the string "high" at "rate", where the schema declares Float.`,
        path: ['loanType', 'rate'],
        extensions: expect.objectContaining({
          code: 'BAD_UPSTREAM_VALUE',
          typeName: 'LoanType',
          field: 'rate',
          objectId: id,
          expected: 'Float',
          received: 'the string "high"',
        }),
      }),
    ]);
  });

  it('should null only the bad object of a page when a non-null field is missing, keeping the others', async () => {
    const saved = await h.client(demo.token).mutate({
      mutation: SaveDocument,
      variables: { objectName: LOAN, data: { description: 'no loanType at all', rate: 1 } },
    });
    const id = saved.data!.saveObject.id;
    const result = await h.client(demo.token).query({
      query: LoanTypesDocument,
      variables: { first: 3, where: { id: { in: [id, demo.ids[0]!] } } },
    });
    const nodes = result.data!.loanTypes.nodes;
    expect(nodes).toHaveLength(2);
    expect(nodes.filter((n) => n === null)).toHaveLength(1);
    expect(nodes.find((n) => n !== null)?.id).toBe(demo.ids[0]);
    expect(errorCodes(result.error)).toEqual(['BAD_UPSTREAM_VALUE']);
    expect(firstError(result.error).message).toBe(
      `LoanType.loanType: object ${id} holds nothing at "loanType", where the schema declares String!.`,
    );
  });
});
