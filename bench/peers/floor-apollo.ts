/**
 * Peer F1, the floor: what Fastify 5 + `@as-integrations/fastify` + Apollo Server 5 cost with the
 * gateway's Apollo options (`src/app/create-gateway.ts`: CSRF prevention off, no batching, no stack traces,
 * schema details hidden, the drain plugin, usage/schema reporting, inline traces, cache control and
 * suggestions off, no landing page, introspection off) and each field doing what P1 does by hand: one
 * undici `Pool` request, the JSONP wrapper sliced off, `JSON.parse`. No sessions, loaders, logging,
 * metrics or limits. W3's references of a page are read in one call for the whole page (two calls, as P1
 * and the gateway), by hand rather than with a loader.
 *
 * Env: `PORT`, `UPSTREAM_URL`, `APPLICATION_CODE`, `ORGANIZATION_CODE`. Credentials per request from the
 * `x-upstream-token` and `x-upstream-username` headers, as for P1–P3.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDisableSuggestions } from '@apollo/server/plugin/disableSuggestions';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify from 'fastify';
import { GraphQLError } from 'graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import {
  credentialsFrom,
  escapeRegex,
  peerTypeDefs,
  readPeerSettings,
  saveBody,
  valueAtPath,
} from './peer-schema.ts';
import type { PeerCredentials, PeerRecord } from './peer-schema.ts';
import { createUpstreamCaller } from './upstream-reads.ts';
import { closeOnSignals } from '../../support/close-on-signals.ts';

const settings = readPeerSettings(process.env);
const { call, read } = createUpstreamCaller(settings, (message) => new GraphQLError(message));

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

interface Context {
  credentials: PeerCredentials;
}

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
    object: async (_: unknown, args: { objectName: string; id: string }, context: Context) => {
      const answer = await read('getObject/', context.credentials, args.objectName, escapeRegex(args.id));
      const record = answer.data[0];
      return record === undefined ? null : { record, page: undefined };
    },
    objects: async (_: unknown, args: { objectName: string; first?: number | null }, context: Context) => {
      const answer = await read('getAll', context.credentials, args.objectName, undefined, args.first ?? 20);
      const page: Page = { records: answer.data, refs: new Map() };
      return { totalCount: answer.totalCount, nodes: answer.data.map((record) => ({ record, page })) };
    },
    orders: async (_: unknown, args: { first?: number | null }, context: Context) => {
      const answer = await read('getAll', context.credentials, ORDER, undefined, args.first ?? 20);
      const page: Page = { records: answer.data, refs: new Map() };
      return { totalCount: answer.totalCount, nodes: answer.data.map((record) => ({ record, page })) };
    },
  },
  Mutation: {
    saveObject: async (_: unknown, args: { objectName: string; data: object }, context: Context) => {
      const body = JSON.stringify(saveBody(settings, context.credentials, args.objectName, args.data));
      const answer = await call('/studio/jsonp/save?callback=cb', body);
      return { id: answer.savedObjectId };
    },
  },
  DataObject: {
    id: (node: Node) => node.record._id,
    data: (node: Node) => node.record,
    ref: async (node: Node, args: { path: string; objectName: string }, context: Context) => {
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
    customer: async (node: Node, _args: unknown, context: Context) => {
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

const app = Fastify({ logger: false });
const apollo = new ApolloServer<Context>({
  typeDefs: [peerTypeDefs, typedTypeDefs],
  resolvers: [resolvers, typedResolvers],
  introspection: false,
  csrfPrevention: false,
  allowBatchedHttpRequests: false,
  includeStacktraceInErrorResponses: false,
  stopOnTerminationSignals: false,
  hideSchemaDetailsFromClientErrors: true,
  plugins: [
    fastifyApolloDrainPlugin(app),
    ApolloServerPluginUsageReportingDisabled(),
    ApolloServerPluginSchemaReportingDisabled(),
    ApolloServerPluginInlineTraceDisabled(),
    ApolloServerPluginCacheControlDisabled(),
    ApolloServerPluginDisableSuggestions(),
    ApolloServerPluginLandingPageDisabled(),
  ],
});
await apollo.start();
await app.register(fastifyApollo(apollo), {
  path: '/graphql',
  method: ['GET', 'POST', 'OPTIONS'],
  context: (request) => Promise.resolve({ credentials: credentialsFrom(request.raw) }),
});
closeOnSignals(() => app.close());
await app.listen({ port: settings.port, host: '127.0.0.1' });
console.log(`floor peer (Fastify + Apollo) listening on ${String(settings.port)}`);
