/**
 * Peer P2: a naive Apollo Server 5, as a team would write it in an afternoon. Global `fetch`, a regular
 * expression to strip the JSONP wrapper, one upstream call per resolver, no DataLoader (W3 costs 51
 * calls). Production settings: NODE_ENV=production (set by the bench), introspection off, no landing page,
 * usage reporting off.
 */
import { startStandaloneServer } from '@apollo/server/standalone';
import { GraphQLError } from 'graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import { credentialsFrom, escapeRegex, readPeerSettings, saveBody, valueAtPath } from './peer-schema.ts';
import type { PeerCredentials, PeerRecord } from './peer-schema.ts';
import { peerApolloServer } from './peer-apollo-server.ts';
import { readPath, type ReadOperation } from './upstream-reads.ts';

const settings = readPeerSettings(process.env);
const wrapper = /^[^(]*\(([\s\S]*)\)\s*;?\s*$/;

interface ReadAnswer {
  status: string;
  data: PeerRecord[];
  totalCount: number;
  message?: string;
}

async function upstream(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new GraphQLError(`upstream answered HTTP ${response.status}`);
  const match = wrapper.exec(text);
  const answer = JSON.parse(match?.[1] ?? text) as Record<string, unknown>;
  if (answer.status !== 'success') {
    throw new GraphQLError(typeof answer.message === 'string' ? answer.message : 'upstream error');
  }
  return answer;
}

/** The read's full URL: the query string every peer builds the same way (`upstream-reads.ts`). */
function readUrl(
  operation: ReadOperation,
  credentials: PeerCredentials,
  objectName: string,
  idPattern: string | undefined,
  pageSize?: number,
): string {
  const identity = { ...settings, username: credentials.username, token: credentials.token };
  return settings.upstreamUrl + readPath(operation, identity, objectName, idPattern, pageSize);
}

async function getObject(
  credentials: PeerCredentials,
  objectName: string,
  id: string,
): Promise<PeerRecord | null> {
  const answer = (await upstream(
    readUrl('getObject/', credentials, objectName, escapeRegex(id)),
  )) as unknown as ReadAnswer;
  return answer.data[0] ?? null;
}

interface Context {
  credentials: PeerCredentials;
}

const resolvers = {
  JSONObject: JSONObjectResolver,
  Query: {
    object: (_: unknown, args: { objectName: string; id: string }, context: Context) =>
      getObject(context.credentials, args.objectName, args.id),
    objects: async (_: unknown, args: { objectName: string; first?: number | null }, context: Context) => {
      const url = readUrl('getAll', context.credentials, args.objectName, undefined, args.first ?? 20);
      const answer = (await upstream(url)) as unknown as ReadAnswer;
      return { totalCount: answer.totalCount, nodes: answer.data };
    },
  },
  Mutation: {
    saveObject: async (_: unknown, args: { objectName: string; data: object }, context: Context) => {
      const body = saveBody(settings, context.credentials, args.objectName, args.data);
      const answer = await upstream(`${settings.upstreamUrl}/studio/jsonp/save?callback=cb`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { id: answer.savedObjectId };
    },
  },
  DataObject: {
    id: (record: PeerRecord) => record._id,
    data: (record: PeerRecord) => record,
    ref: (record: PeerRecord, args: { path: string; objectName: string }, context: Context) => {
      const id = valueAtPath(record, args.path);
      return typeof id === 'string' ? getObject(context.credentials, args.objectName, id) : null;
    },
  },
};

const server = peerApolloServer<Context>(resolvers);

const { url } = await startStandaloneServer(server, {
  listen: { port: settings.port, host: '127.0.0.1' },
  context: ({ req }) => Promise.resolve({ credentials: credentialsFrom(req) }),
});
console.log(`naive Apollo peer listening at ${url}`);
