/**
 * Peer P3: what a careful team builds with Apollo's own tools. Apollo Server 5 and a `RESTDataSource`
 * (`@apollo/datasource-rest`) per request, its `parseBody` overridden to decode JSONP. Everything else is
 * the library's default: its fetch, its HTTP cache, and its de-duplication of identical GETs within one
 * GraphQL request (so W3 costs one call for the page plus one per distinct customer). Same production
 * settings as P2.
 */
import { startStandaloneServer } from '@apollo/server/standalone';
import { RESTDataSource } from '@apollo/datasource-rest';
import type { DataSourceConfig } from '@apollo/datasource-rest';
import { GraphQLError } from 'graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import { credentialsFrom, escapeRegex, readPeerSettings, saveBody, valueAtPath } from './peer-schema.ts';
import type { PeerCredentials, PeerRecord, PeerSettings } from './peer-schema.ts';
import { peerApolloServer } from './peer-apollo-server.ts';

interface ReadAnswer {
  status: string;
  data?: PeerRecord[];
  totalCount?: number;
  savedObjectId?: string;
  message?: string;
}

/** The upstream's JSONP endpoints as a REST data source. */
class ObjectDataSource extends RESTDataSource {
  private readonly credentials: PeerCredentials;
  private readonly settings: PeerSettings;

  constructor(settings: PeerSettings, credentials: PeerCredentials, config?: DataSourceConfig) {
    super(config);
    this.baseURL = `${settings.upstreamUrl}/`;
    this.settings = settings;
    this.credentials = credentials;
  }

  /** JSONP: the JSON between the callback's parentheses. */
  protected override async parseBody(response: { text(): Promise<string> }): Promise<object> {
    const text = await response.text();
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    return JSON.parse(open >= 0 && close > open ? text.slice(open + 1, close) : text) as object;
  }

  private readParams(objectName: string, criteria: object[]): Record<string, string> {
    return {
      objectName,
      filterCommand: JSON.stringify({ criteria }),
      username: this.credentials.username,
      organizationCode: this.settings.organizationCode,
      applicationCode: this.settings.applicationCode,
      apiToken: this.credentials.token,
      callback: 'cb',
    };
  }

  async getObject(objectName: string, id: string): Promise<PeerRecord | null> {
    const criteria = [{ fieldName: '_id', operator: 'matches', value: escapeRegex(id) }];
    const answer = checked(
      await this.get<ReadAnswer>('studio/jsonp/getObject/', {
        params: this.readParams(objectName, criteria),
      }),
    );
    return answer.data?.[0] ?? null;
  }

  async getAll(objectName: string, pageSize: number): Promise<{ totalCount: number; nodes: PeerRecord[] }> {
    const params = { ...this.readParams(objectName, []), pageSize: String(pageSize), pageStart: '0' };
    const answer = checked(await this.get<ReadAnswer>('studio/jsonp/getAll', { params }));
    return { totalCount: answer.totalCount ?? 0, nodes: answer.data ?? [] };
  }

  async save(objectName: string, data: object): Promise<string | undefined> {
    const body = saveBody(this.settings, this.credentials, objectName, data);
    const answer = checked(
      await this.post<ReadAnswer>('studio/jsonp/save', { params: { callback: 'cb' }, body }),
    );
    return answer.savedObjectId;
  }
}

function checked(answer: ReadAnswer): ReadAnswer {
  if (answer.status !== 'success') throw new GraphQLError(answer.message ?? 'upstream error');
  return answer;
}

interface Context {
  dataSources: { objects: ObjectDataSource };
}

const resolvers = {
  JSONObject: JSONObjectResolver,
  Query: {
    object: (_: unknown, args: { objectName: string; id: string }, context: Context) =>
      context.dataSources.objects.getObject(args.objectName, args.id),
    objects: (_: unknown, args: { objectName: string; first?: number | null }, context: Context) =>
      context.dataSources.objects.getAll(args.objectName, args.first ?? 20),
  },
  Mutation: {
    saveObject: async (_: unknown, args: { objectName: string; data: object }, context: Context) => ({
      id: await context.dataSources.objects.save(args.objectName, args.data),
    }),
  },
  DataObject: {
    id: (record: PeerRecord) => record._id,
    data: (record: PeerRecord) => record,
    ref: (record: PeerRecord, args: { path: string; objectName: string }, context: Context) => {
      const id = valueAtPath(record, args.path);
      return typeof id === 'string' ? context.dataSources.objects.getObject(args.objectName, id) : null;
    },
  },
};

const settings = readPeerSettings(process.env);
const server = peerApolloServer<Context>(resolvers);

const { url } = await startStandaloneServer(server, {
  listen: { port: settings.port, host: '127.0.0.1' },
  context: ({ req }) => {
    // Apollo's documented pattern: one data source per request, sharing the server's cache.
    const { cache } = server;
    return Promise.resolve({
      dataSources: { objects: new ObjectDataSource(settings, credentialsFrom(req), { cache }) },
    });
  },
});
console.log(`RESTDataSource Apollo peer listening at ${url}`);
