/**
 * `RELAY_NODE=true`, through Apollo Client against the real gateway and emulator: a global id (a Relay
 * `id`) given where an upstream id belongs is `BAD_USER_INPUT` naming the argument and both kinds of id,
 * before any upstream call, in every argument the README's "which id goes where" lists; the upstream id
 * (`upstreamId`) still reads and writes there.
 */
import { gql } from '@apollo/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { firstError } from '../support/graphql-errors.ts';

const h = useHarness({ env: { RELAY_NODE: 'true' }, resetStatsEachTest: true });

interface Ids {
  id: string;
  upstreamId: string;
}

let token: string;
let customer: Ids;
let order: Ids;

beforeAll(async () => {
  token = await h.login();
  const first = await h.client(token).query({
    query: gql`
      {
        customers(first: 1) {
          nodes {
            id
            upstreamId
          }
        }
        orders(first: 1) {
          nodes {
            id
            upstreamId
          }
        }
      }
    `,
  });
  const page = first.data as { customers: { nodes: Ids[] }; orders: { nodes: Ids[] } } | undefined;
  const [c] = page?.customers.nodes ?? [];
  const [o] = page?.orders.nodes ?? [];
  if (c === undefined || o === undefined) throw new Error('expected a customer and an order');
  [customer, order] = [c, o];
});

/** Sends `document` with `variables`; answers its first error's message and extensions, and the data. */
async function send(document: string, variables: Record<string, unknown>) {
  const query = gql(document);
  const isMutation = document.trimStart().startsWith('mutation');
  const result = isMutation
    ? await h.client(token).mutate({ mutation: query, variables })
    : await h.client(token).query({ query, variables });
  return { data: result.data as Record<string, unknown> | undefined, error: result.error };
}

describe('a global id where an upstream id belongs', () => {
  it.each([
    [
      'object(objectName, id)',
      'query ($id: ID!) { object(objectName: "com.example.Customer", id: $id) { id } }',
      (id: string) => ({ id }),
      'id',
      '"id" is a global id (the `id` of a Customer), but object(objectName, id) takes an upstream id',
    ],
    [
      'metadata(objectId)',
      'query ($id: ID!) { metadata(objectId: $id) { objectId } }',
      (id: string) => ({ id }),
      'objectId',
      '"objectId" is a global id (the `id` of a Customer), but metadata(objectId) takes an upstream id',
    ],
    [
      'updateObject(id)',
      'mutation ($id: ID!) { updateObject(id: $id, objectName: "com.example.Customer", data: { name: "x" }) { updatedFields } }',
      (id: string) => ({ id }),
      'id',
      '"id" is a global id (the `id` of a Customer), but updateObject(id, objectName) takes an upstream id',
    ],
    [
      'saveObject(data: { _id })',
      'mutation ($data: JSONObject!) { saveObject(objectName: "com.example.Customer", data: $data) { object { id } } }',
      (id: string) => ({ data: { _id: id, name: 'x' } }),
      'data',
      '"data._id" is a global id (the `id` of a Customer), but saveObject(data) takes an upstream id',
    ],
    [
      'objects(filter)',
      'query ($id: String!) { objects(objectName: "com.example.Order", filter: { criteria: [{ fieldName: "customer.id", operator: equals, value: $id }] }) { nodes { id } } }',
      (id: string) => ({ id }),
      'filter',
      '"filter.criteria[0].value" is a global id (the `id` of a Customer), but objects(filter) takes an upstream id',
    ],
    [
      'orders(where: { customer: { id } })',
      'query ($id: ID!) { orders(first: 1, where: { customer: { id: { in: [$id] } } }) { nodes { id } } }',
      (id: string) => ({ id }),
      'where',
      '"where.customer.id.in[0]" is a global id (the `id` of a Customer), but orders(where:) takes an upstream id',
    ],
    [
      'saveOrder(input: { customer })',
      'mutation ($id: ID!) { saveOrder(input: { number: "ORD-9", customer: $id }) { object { id } } }',
      (id: string) => ({ id }),
      'input',
      '"input.customer" is a global id (the `id` of a Customer), but saveOrder(input) takes an upstream id',
    ],
  ])(
    'should refuse it in %s, naming both kinds of id, with no upstream call',
    async (_name, doc, vars, argument, message) => {
      const { data, error } = await send(doc, vars(customer.id));
      expect(firstError(error)).toEqual({
        message: `${message}: pass the object's \`upstreamId\`.`,
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argumentName: argument }) as unknown,
      });
      expect(Object.values(data ?? {}).every((value) => value === null)).toBe(true);
      expect(h.totalUpstreamCalls()).toBe(0);
    },
  );

  it('should read with the upstream id there, as before', async () => {
    const read = await send(
      'query ($id: ID!) { object(objectName: "com.example.Customer", id: $id) { id upstreamId } }',
      {
        id: customer.upstreamId,
      },
    );
    expect(read.error).toBeUndefined();
    expect(read.data?.object).toEqual({
      __typename: 'DataObject',
      id: expect.any(String),
      upstreamId: customer.upstreamId,
    });
    const where = await send(
      'query ($id: ID!) { orders(first: 1, where: { customer: { id: { equals: $id } } }) { nodes { upstreamId } } }',
      {
        id: customer.upstreamId,
      },
    );
    expect(where.error).toBeUndefined();
  });

  it("should say whose global id it is in the typed field's id: an Order's, not a LoanType's", async () => {
    const { error } = await send('query ($id: ID!) { loanType(id: $id) { id } }', { id: order.id });
    expect(firstError(error)).toEqual({
      message: '"id" is the global id of an Order, not of a LoanType.',
      extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argumentName: 'id' }) as unknown,
    });
  });

  it('should name both kinds of id when an upstream id is given where the global id belongs', async () => {
    const { error } = await send('query ($id: ID!) { customer(id: $id) { id } }', {
      id: customer.upstreamId,
    });
    const refusal = firstError(error);
    expect(refusal.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    expect(refusal.message).toMatch(
      /^"id" is not a global id of this gateway \([^)]+\): it takes a global id \(an object's `id`\), not an upstream id \(`upstreamId`\)\.$/,
    );
    expect(refusal.message.match(/global id of this gateway/g)).toHaveLength(1);
  });
});
