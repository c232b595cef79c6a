/**
 * The gateway as a Federation 2 subgraph (`FEDERATION=true`) in a real supergraph: composed with a small
 * billing subgraph (it owns `Invoice` and references `Customer { id }`) by @theguild/federation-composition,
 * served by @apollo/gateway on loopback with the `Authorization` header forwarded to the subgraphs. A query
 * that crosses both subgraphs answers right, and this subgraph's upstream sees one `getAll` for all the
 * referenced customers.
 */
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/gateway-harness.ts';
import { startFederationRouter, type FederationRouter } from '../support/federation-router.ts';

const BILLING_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Invoice @key(fields: "id") {
    id: ID!
    amount: Float!
    customer: Customer!
  }
  type Customer @key(fields: "id", resolvable: false) {
    id: ID!
  }
  type Query {
    invoices: [Invoice!]!
  }
`;

let subgraph: Harness;
let token: string;
let customers: { id: string; name: string }[];
let billing: ApolloServer;
let router: FederationRouter;
let routerUrl: string;

async function post(url: string, query: string, authorization?: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query }),
  });
  return response.json();
}

beforeAll(async () => {
  subgraph = await startHarness({ env: { FEDERATION: 'true' } });
  token = await subgraph.login();
  const page = (await post(
    subgraph.graphqlUrl,
    '{ customers(first: 50) { nodes { id name } } }',
    `Bearer ${token}`,
  )) as { data: { customers: { nodes: { id: string; name: string }[] } } };
  customers = page.data.customers.nodes;

  billing = new ApolloServer({
    schema: buildSubgraphSchema({
      typeDefs: parse(BILLING_SDL),
      resolvers: {
        Query: {
          invoices: () =>
            customers.map((customer, i) => ({
              id: `inv-${String(i)}`,
              amount: 10 + i,
              customer: { id: customer.id },
            })),
        },
      },
    }),
    plugins: [ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginSchemaReportingDisabled()],
  });
  const billingUrl = (await startStandaloneServer(billing, { listen: { host: '127.0.0.1', port: 0 } })).url;

  // The SDL a composition pipeline gets: the subgraph's own `_service { sdl }`.
  const service = (await post(subgraph.graphqlUrl, '{ _service { sdl } }')) as {
    data: { _service: { sdl: string } };
  };
  const composed = composeServices([
    { name: 'objects', typeDefs: parse(service.data._service.sdl), url: subgraph.graphqlUrl },
    { name: 'billing', typeDefs: parse(BILLING_SDL), url: billingUrl },
  ]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));

  router = await startFederationRouter(composed.supergraphSdl);
  routerUrl = router.url;
});

afterAll(async () => {
  await router.stop();
  await billing.stop();
  await subgraph.close();
});

describe('the gateway in a federated supergraph', () => {
  it('should answer a query across both subgraphs with one upstream getAll for 50 customer references', async () => {
    expect(customers).toHaveLength(50);
    subgraph.emulator.resetStats();
    const answer = (await post(
      routerUrl,
      '{ invoices { id amount customer { id name } } }',
      `Bearer ${token}`,
    )) as { data?: { invoices: { id: string; customer: { id: string; name: string } }[] }; errors?: unknown };
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.invoices.map((invoice) => invoice.customer)).toEqual(customers);
    expect(subgraph.upstreamCalls().getAll).toBe(1);
    expect(Object.values(subgraph.upstreamCalls()).reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('should log in through the router, and the session work across the supergraph', async () => {
    const login = (await post(
      routerUrl,
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    )) as { data: { login: { token: string } } };
    const answer = (await post(
      routerUrl,
      '{ invoices { customer { name } } }',
      `Bearer ${login.data.login.token}`,
    )) as { data?: { invoices: { customer: { name: string } }[] } };
    expect(answer.data?.invoices[0]?.customer.name).toBe(customers[0]?.name);
  });

  it('should resolve a generic DataObject reference by objectName and id', async () => {
    const first = customers[0];
    const answer = (await post(
      subgraph.graphqlUrl,
      `{ _entities(representations: [{ __typename: "DataObject", objectName: "com.example.Customer", id: "${first?.id ?? ''}" }]) { ... on DataObject { id objectName } } }`,
      `Bearer ${token}`,
    )) as { data: { _entities: unknown[] } };
    expect(answer.data._entities).toEqual([{ id: first?.id, objectName: 'com.example.Customer' }]);
  });

  it('should need the session: without the forwarded header the customers are UNAUTHENTICATED', async () => {
    const answer = (await post(routerUrl, '{ invoices { customer { name } } }')) as {
      errors?: { extensions?: { code?: string } }[];
    };
    expect(answer.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
