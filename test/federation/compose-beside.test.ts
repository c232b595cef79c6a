/**
 * The subgraph composes beside a common accounts subgraph: one with its own `@shareable PageInfo`,
 * `Query.me: User`, `User`, `Session`, `login`, `logout` and a `FilterInput` of its own. Without a prefix both composers refuse (the
 * names collide); with `FEDERATION_NAME_PREFIX=Objects` the gateway's session API is `objectsMe`,
 * `objectsLogin`, `ObjectsSession`, … and both @theguild/federation-composition and @apollo/composition
 * compose. Each supergraph is served by @apollo/gateway, and one query through it reaches both subgraphs.
 */
import { composeServices as composeWithApollo } from '@apollo/composition';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema, printSubgraphSchema } from '@apollo/subgraph';
import { composeServices as composeWithTheGuild } from '@theguild/federation-composition';
import { parse, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/app/build-schema.ts';
import { startHarness, type Harness } from '../support/gateway-harness.ts';
import { startFederationRouter, type FederationRouter } from '../support/federation-router.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

const ACCOUNTS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
  type PageInfo @shareable {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }
  type User @key(fields: "id") {
    id: ID!
    name: String!
  }
  type Session {
    user: User!
    expiresAt: String!
  }
  type UserConnection {
    nodes: [User!]!
    pageInfo: PageInfo!
  }
  input FilterInput {
    email: String
  }
  type Query {
    me: User
    users(filter: FilterInput): UserConnection!
  }
  type Mutation {
    login(email: String!, password: String!): Session!
    logout: Boolean!
  }
`;

const ALICE = { id: 'u1', name: 'Alice' };
const PAGE = { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };

type Compose = (services: { name: string; typeDefs: DocumentNode; url: string }[]) => {
  errors?: readonly { message: string }[] | undefined;
  supergraphSdl?: string | undefined;
};

const COMPOSERS: [string, Compose][] = [
  ['@theguild/federation-composition', (services) => composeWithTheGuild(services)],
  ['@apollo/composition', (services) => composeWithApollo(services)],
];

let subgraph: Harness;
let accounts: ApolloServer;
let accountsUrl: string;
const routers: FederationRouter[] = [];

beforeAll(async () => {
  subgraph = await startHarness({ env: { FEDERATION: 'true', FEDERATION_NAME_PREFIX: 'Objects' } });
  accounts = new ApolloServer({
    schema: buildSubgraphSchema({
      typeDefs: parse(ACCOUNTS_SDL),
      resolvers: {
        Query: { me: () => ALICE, users: () => ({ nodes: [ALICE], pageInfo: PAGE }) },
        Mutation: {
          login: () => ({ user: ALICE, expiresAt: '2030-01-01T00:00:00Z' }),
          logout: () => true,
        },
      },
    }),
    plugins: [ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginSchemaReportingDisabled()],
  });
  accountsUrl = (await startStandaloneServer(accounts, { listen: { host: '127.0.0.1', port: 0 } })).url;
});

afterAll(async () => {
  for (const router of routers) await router.stop();
  await accounts.stop();
  await subgraph.close();
});

async function post(url: string, query: string, authorization?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
}

async function servedSdl(): Promise<DocumentNode> {
  const service = (await post(subgraph.graphqlUrl, '{ _service { sdl } }')) as {
    data: { _service: { sdl: string } };
  };
  return parse(service.data._service.sdl);
}

async function startRouter(supergraphSdl: string): Promise<string> {
  const router = await startFederationRouter(supergraphSdl);
  routers.push(router);
  return router.url;
}

describe('the subgraph beside an accounts subgraph', () => {
  it.each(COMPOSERS)(
    'should not compose without a prefix (%s): the session names collide',
    (_name, compose) => {
      const unprefixed = parse(
        printSubgraphSchema(buildSchema({ federation: true, objectsDir: DEMO_OBJECTS_DIR })),
      );
      const result = compose([
        { name: 'objects', typeDefs: unprefixed, url: 'http://objects.invalid/graphql' },
        { name: 'accounts', typeDefs: parse(ACCOUNTS_SDL), url: 'http://accounts.invalid/graphql' },
      ]);
      expect(result.errors?.map((error) => error.message).join('\n')).toMatch(/Query\.me|User|Session|login/);
    },
  );

  it.each(COMPOSERS)(
    'should compose with FEDERATION_NAME_PREFIX=Objects (%s), and one query through the router reach both',
    async (_name, compose) => {
      const result = compose([
        { name: 'objects', typeDefs: await servedSdl(), url: subgraph.graphqlUrl },
        { name: 'accounts', typeDefs: parse(ACCOUNTS_SDL), url: accountsUrl },
      ]);
      expect(result.errors).toBeUndefined();
      const routerUrl = await startRouter(result.supergraphSdl ?? '');

      const login = await post(
        routerUrl,
        'mutation { objectsLogin(username: "demo", password: "demo-password") { token user { username } } }',
      );
      const { token } = (login.data?.objectsLogin ?? {}) as { token?: string };
      expect(token).toBeTypeOf('string');

      const answer = await post(
        routerUrl,
        `{
          me { name }
          users(filter: { email: "a@example.com" }) { pageInfo { hasNextPage } }
          objectsMe { username }
          customers(first: 2) { nodes { name } pageInfo { hasNextPage } }
        }`,
        `Bearer ${token ?? ''}`,
      );
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toMatchObject({
        me: { name: 'Alice' },
        users: { pageInfo: { hasNextPage: false } },
        objectsMe: { username: 'demo' },
        customers: { pageInfo: { hasNextPage: true } },
      });
      expect((answer.data?.customers as { nodes: unknown[] }).nodes).toHaveLength(2);
    },
  );

  it('should keep the one-login-per-request rule on the renamed login', async () => {
    const answer = await post(
      subgraph.graphqlUrl,
      'mutation { a: objectsLogin(username: "demo", password: "x") { token } b: objectsLogin(username: "demo", password: "y") { token } }',
    );
    expect(answer.errors?.[0]).toMatchObject({ extensions: { code: 'LOGIN_NOT_ALONE' } });
  });

  it('should keep the names unprefixed outside federation, and refuse the prefix there', async () => {
    const { loadConfig } = await import('../../src/config/load-config.ts');
    expect(() => loadConfig({ FEDERATION_NAME_PREFIX: 'Objects' })).toThrow(
      'Invalid setting FEDERATION_NAME_PREFIX: only with FEDERATION=true',
    );
    expect(() => loadConfig({ FEDERATION: 'true', FEDERATION_NAME_PREFIX: 'objects' })).toThrow(
      /^Invalid setting FEDERATION_NAME_PREFIX: must be a capitalised GraphQL name/,
    );
  });
});
