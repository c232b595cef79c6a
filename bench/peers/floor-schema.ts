/**
 * The floor peers' schema and resolvers, shared by F1, F1H, F1J (`floor-apollo.ts`) and M1
 * (`mercurius-jit.ts`): the gateway's field names, each field doing what P1 does by hand (one undici `Pool`
 * request, the JSONP wrapper sliced off, `JSON.parse`), W3's references of a page read in one call for the
 * whole page (two calls, as P1 and the gateway), by hand rather than with a loader.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import { escapeRegex, peerTypeDefs, saveBody, valueAtPath } from './peer-schema.ts';
import type { PeerCredentials, PeerRecord, PeerSettings } from './peer-schema.ts';
import { createUpstreamCaller } from './upstream-reads.ts';

/** What every floor resolver reads: the request's upstream credentials. */
export interface FloorContext {
  credentials: PeerCredentials;
}

/** A record as a field resolves it, with the page it came in (whose references are read together). */
interface Node {
  record: PeerRecord;
  page: Page | undefined;
}

/** A page's records and, per reference path and type, the one read of all their references. */
interface Page {
  records: PeerRecord[];
  refs: Map<string, Promise<Map<string, PeerRecord>>>;
}

/** The typed API's object names (`schema/objects/`): W3T's `orders` and each order's `customer`. */
const ORDER = 'com.example.Order';
const CUSTOMER = 'com.example.Customer';

/** W3T's part of the gateway's typed API (`schema/objects/`), cut down to the fields the workload selects. */
const typedTypeDefs = /* GraphQL */ `
  type Customer {
    id: ID!
    name: String!
    email: String
    mobile: String
    city: String
    country: String
  }

  type Order {
    id: ID!
    number: String!
    total: Float
    status: String
    customer: Customer
  }

  type OrderConnection {
    totalCount: Int!
    nodes: [Order!]!
  }

  extend type Query {
    orders(first: Int): OrderConnection!
  }
`;

/**
 * The floor's executable schema, its resolvers calling the upstream `settings` names. With `memo` (peer
 * F1C), every read is answered from memory after its first call, whoever asks: a perfect cache that never
 * expires, checks no scope and costs one `Map` lookup, so F1C is the fastest Apollo Server can answer a
 * read from a cache, the ceiling of any cache built on it (the gateway's pays scope, versions and bounds).
 */
export function createFloorSchema(settings: PeerSettings, memo = false): GraphQLSchema {
  const upstream = createUpstreamCaller(settings, (message) => new GraphQLError(message));
  const { call } = upstream;
  const memory = new Map<string, ReturnType<typeof upstream.read>>();
  const read: typeof upstream.read = !memo
    ? upstream.read
    : (operation, credentials, objectName, idPattern, pageSize) => {
        const key = JSON.stringify([operation, objectName, idPattern, pageSize]);
        let answer = memory.get(key);
        if (answer === undefined) {
          answer = upstream.read(operation, credentials, objectName, idPattern, pageSize);
          memory.set(key, answer);
          answer.catch(() => memory.delete(key));
        }
        return answer;
      };

  function refsOf(page: Page, path: string, objectName: string, credentials: PeerCredentials) {
    const key = JSON.stringify([path, objectName]);
    let refs = page.refs.get(key);
    if (refs === undefined) {
      const ids = [...new Set(page.records.map((record) => valueAtPath(record, path)))].filter(
        (id): id is string => typeof id === 'string',
      );
      refs =
        ids.length === 0
          ? Promise.resolve(new Map())
          : read('getAll', credentials, objectName, ids.map(escapeRegex).join('|'), ids.length).then(
              (answer) => new Map(answer.data.map((record) => [record._id, record])),
            );
      page.refs.set(key, refs);
    }
    return refs;
  }

  const resolvers = {
    JSONObject: JSONObjectResolver,
    Query: {
      object: async (_: unknown, args: { objectName: string; id: string }, context: FloorContext) => {
        const answer = await read('getObject/', context.credentials, args.objectName, escapeRegex(args.id));
        const record = answer.data[0];
        return record === undefined ? null : { record, page: undefined };
      },
      objects: async (
        _: unknown,
        args: { objectName: string; first?: number | null },
        context: FloorContext,
      ) => {
        const answer = await read(
          'getAll',
          context.credentials,
          args.objectName,
          undefined,
          args.first ?? 20,
        );
        const page: Page = { records: answer.data, refs: new Map() };
        return { totalCount: answer.totalCount, nodes: answer.data.map((record) => ({ record, page })) };
      },
      orders: async (_: unknown, args: { first?: number | null }, context: FloorContext) => {
        const answer = await read('getAll', context.credentials, ORDER, undefined, args.first ?? 20);
        const page: Page = { records: answer.data, refs: new Map() };
        return { totalCount: answer.totalCount, nodes: answer.data.map((record) => ({ record, page })) };
      },
    },
    Mutation: {
      saveObject: async (_: unknown, args: { objectName: string; data: object }, context: FloorContext) => {
        const body = JSON.stringify(saveBody(settings, context.credentials, args.objectName, args.data));
        const answer = await call('/studio/jsonp/save?callback=cb', body);
        return { id: answer.savedObjectId };
      },
    },
    DataObject: {
      id: (node: Node) => node.record._id,
      data: (node: Node) => node.record,
      ref: async (node: Node, args: { path: string; objectName: string }, context: FloorContext) => {
        const id = valueAtPath(node.record, args.path);
        if (typeof id !== 'string') return null;
        if (node.page === undefined) {
          const answer = await read('getObject/', context.credentials, args.objectName, escapeRegex(id));
          const record = answer.data[0];
          return record === undefined ? null : { record, page: undefined };
        }
        const record = (await refsOf(node.page, args.path, args.objectName, context.credentials)).get(id);
        return record === undefined ? null : { record, page: undefined };
      },
    },
  };

  /** Plain resolvers of the typed fields: a record's value, its customer from the page's one read. */
  const typedResolvers = {
    Order: {
      id: (node: Node) => node.record._id,
      number: (node: Node) => node.record.number,
      total: (node: Node) => node.record.total,
      status: (node: Node) => node.record.status,
      customer: async (node: Node, _args: unknown, context: FloorContext) => {
        const id = valueAtPath(node.record, 'customer.id');
        if (typeof id !== 'string' || node.page === undefined) return null;
        return (await refsOf(node.page, 'customer.id', CUSTOMER, context.credentials)).get(id) ?? null;
      },
    },
    Customer: {
      id: (record: PeerRecord) => record._id,
      city: (record: PeerRecord) => valueAtPath(record, 'address.city'),
      country: (record: PeerRecord) => valueAtPath(record, 'address.country'),
    },
  };

  return makeExecutableSchema({
    typeDefs: [peerTypeDefs, typedTypeDefs],
    resolvers: [resolvers, typedResolvers],
  });
}
