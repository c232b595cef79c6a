/**
 * What a front-end sees of the typed types beyond the fields it declared: descriptions that read as
 * English, a described `id`, and `metadata` like the generic `DataObject` has, all through a real client.
 */
import { gql, type TypedDocumentNode } from '@apollo/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';

interface FieldInfo {
  name: string;
  description: string | null;
  type: { name: string | null; ofType: { name: string | null } | null };
}
interface TypeInfo {
  __type: { description: string | null; fields: FieldInfo[] } | null;
}
const TypeDocument: TypedDocumentNode<TypeInfo, { name: string }> = gql`
  query TypeInfo($name: String!) {
    __type(name: $name) {
      description
      fields {
        name
        description
        type {
          name
          ofType {
            name
          }
        }
      }
    }
  }
`;

interface OrderMetadata {
  orders: { nodes: { id: string; metadata: { objectId: string; category: string } | null }[] };
}
const OrderMetadataDocument: TypedDocumentNode<OrderMetadata> = gql`
  {
    orders(first: 1) {
      nodes {
        id
        metadata {
          objectId
          category
        }
      }
    }
  }
`;

let token: string;
const h = useHarness();
beforeAll(async () => {
  token = await h.login();
});

const typeInfo = async (name: string) =>
  (await h.client(token).query({ query: TypeDocument, variables: { name } })).data?.__type;
const fieldOf = async (type: string, field: string) =>
  (await typeInfo(type))?.fields.find((f) => f.name === field);

describe('derived descriptions and fields of typed types', () => {
  it('should describe mutations with the right article ("Creates an Order", "Creates a Customer")', async () => {
    expect((await fieldOf('Mutation', 'saveOrder'))?.description).toBe('Creates an Order.');
    expect((await fieldOf('Mutation', 'saveCustomer'))?.description).toBe('Creates a Customer.');
    expect((await typeInfo('OrderEdge'))?.description).toBe('An edge of an OrderConnection.');
  });

  it('should describe the id field of every typed type', async () => {
    for (const type of ['Order', 'Customer', 'LoanType']) {
      expect((await fieldOf(type, 'id'))?.description).toMatch(
        new RegExp(`^The upstream's \`_id\` of this ${type}`),
      );
    }
  });

  it('should answer metadata on a typed object as the generic DataObject does', async () => {
    const page = await h.client(token).query({ query: OrderMetadataDocument });
    const order = page.data?.orders.nodes[0];
    expect(order?.metadata).toEqual({ __typename: 'ObjectMetadata', objectId: order?.id, category: 'none' });
    expect((await fieldOf('Order', 'metadata'))?.type.name).toBe('ObjectMetadata');
  });

  it('should type the session expiry as DateTime', async () => {
    expect((await fieldOf('LoginPayload', 'expiresAt'))?.type.ofType?.name).toBe('DateTime');
    expect((await fieldOf('Session', 'expiresAt'))?.type.ofType?.name).toBe('DateTime');
  });
});
