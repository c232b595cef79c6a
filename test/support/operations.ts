/** The GraphQL operations the end-to-end tests send, typed by hand after the schema. */
import { gql, type TypedDocumentNode } from '@apollo/client';

type Json = Record<string, unknown>;
interface DataObject {
  id: string;
  objectName: string;
  data: Json;
}
interface Connection {
  totalCount: number;
  edges: { cursor: string; node: { id: string } }[];
  nodes: DataObject[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}
/** One criterion of a `FilterInput`, as variables carry it. */
export interface Criterion {
  fieldName: string;
  /** A `FilterOperator` value; a string, as a client that predates the enum sends it. */
  operator?: string;
  value?: string | null;
  values?: string[] | null;
  caseInsensitive?: boolean;
}

export const LoginDocument: TypedDocumentNode<
  { login: { token: string; expiresAt: string; user: { id: string | null; username: string } } },
  { username: string; password: string; method?: 'JSON' | 'FORM'; organizationCode?: string }
> = gql`
  mutation Login($username: String!, $password: String!, $method: LoginMethod, $organizationCode: String) {
    login(username: $username, password: $password, method: $method, organizationCode: $organizationCode) {
      token
      expiresAt
      user {
        id
        username
      }
    }
  }
`;

export const MeDocument: TypedDocumentNode<
  {
    me: {
      username: string;
      userId: string | null;
      applicationCode: string;
      organizationCode: string | null;
      expiresAt: string;
    } | null;
  },
  Record<string, never>
> = gql`
  query Me {
    me {
      username
      userId
      applicationCode
      organizationCode
      expiresAt
    }
  }
`;

export const ObjectDocument: TypedDocumentNode<
  { object: DataObject | null },
  { objectName: string; id?: string; filter?: { criteria: Criterion[] } }
> = gql`
  query Object($objectName: String!, $id: ID, $filter: FilterInput) {
    object(objectName: $objectName, id: $id, filter: $filter) {
      id
      objectName
      data
    }
  }
`;

export const ObjectsDocument: TypedDocumentNode<
  { objects: Connection },
  {
    objectName: string;
    filter?: { criteria: Criterion[] };
    first?: number;
    after?: string;
    last?: number;
    before?: string;
  }
> = gql`
  query Objects(
    $objectName: String!
    $filter: FilterInput
    $first: Int
    $after: String
    $last: Int
    $before: String
  ) {
    objects(
      objectName: $objectName
      filter: $filter
      first: $first
      after: $after
      last: $last
      before: $before
    ) {
      totalCount
      edges {
        cursor
        node {
          id
        }
      }
      nodes {
        id
        objectName
        data
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`;

export const OrdersWithCustomersDocument: TypedDocumentNode<
  {
    objects: {
      nodes: { id: string; customerId: unknown; ref: { id: string; data: Json } | null }[];
    };
  },
  { first: number }
> = gql`
  query OrdersWithCustomers($first: Int) {
    objects(objectName: "com.example.Order", first: $first) {
      nodes {
        id
        customerId: field(path: "customer.id")
        ref(path: "customer.id", objectName: "com.example.Customer") {
          id
          data
        }
      }
    }
  }
`;

export const MetadataDocument: TypedDocumentNode<
  { metadata: { objectId: string; category: string; data: unknown } | null },
  { objectId: string; category?: string }
> = gql`
  query Metadata($objectId: ID!, $category: String) {
    metadata(objectId: $objectId, category: $category) {
      objectId
      category
      data
    }
  }
`;

export const SaveDocument: TypedDocumentNode<
  { saveObject: { id: string; message: string | null; object: DataObject | null } },
  { objectName: string; data: Json }
> = gql`
  mutation Save($objectName: String!, $data: JSONObject!) {
    saveObject(objectName: $objectName, data: $data) {
      id
      message
      object {
        id
        objectName
        data
      }
    }
  }
`;

export const UpdateDocument: TypedDocumentNode<
  { updateObject: { id: string; message: string | null; updatedFields: Json; object: DataObject | null } },
  { id: string; objectName: string; data: Json }
> = gql`
  mutation Update($id: ID!, $objectName: String!, $data: JSONObject!) {
    updateObject(id: $id, objectName: $objectName, data: $data) {
      id
      message
      updatedFields
      object {
        id
        objectName
        data
      }
    }
  }
`;
