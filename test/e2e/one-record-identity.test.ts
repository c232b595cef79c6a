/**
 * One record, read through both APIs, is two entries in a client's normalized cache (`DataObject:<id>` and
 * `LoanType:<id>`). A write through one API answers what the other's entry needs, when the write's
 * selection asks for it (`typed { ... on LoanType }` on a generic write, `dataObject` on a typed one), so the
 * clients at their defaults show the new value through the other API without asking the gateway again:
 * Apollo Client's `InMemoryCache` and urql's Graphcache (normalized, at its defaults) here, against the real
 * gateway and emulator; urql's document cache refetches what holds either type.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { cacheExchange as graphcacheExchange } from '@urql/exchange-graphcache';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';

const h = useHarness();

/** The first loan type's id, read by the generic API. */
async function aLoanTypeId(token: string): Promise<string> {
  const answer = await h.post(
    '{ objects(objectName: "com.example.LoanType", first: 1) { nodes { id } } }',
    {},
    { authorization: `Bearer ${token}` },
  );
  return (answer.data as { objects: { nodes: { id: string }[] } }).objects.nodes[0]?.id ?? '';
}

const TYPED_READ = gql`
  query TypedRate($id: ID!) {
    loanType(id: $id) {
      id
      rate
    }
  }
`;
const GENERIC_READ = gql`
  query GenericData($id: ID!) {
    object(objectName: "com.example.LoanType", id: $id) {
      id
      data
    }
  }
`;
const GENERIC_WRITE = gql`
  mutation GenericWrite($id: ID!, $data: JSONObject!) {
    updateObject(id: $id, objectName: "com.example.LoanType", data: $data) {
      object {
        id
        data
        typed {
          ... on LoanType {
            id
            rate
          }
        }
      }
    }
  }
`;
const TYPED_WRITE = gql`
  mutation TypedWrite($id: ID!, $rate: Float!) {
    updateLoanType(id: $id, input: { rate: $rate }) {
      object {
        id
        rate
        dataObject {
          id
          data
        }
      }
    }
  }
`;

describe('one record through both APIs', () => {
  it('Apollo Client: a write through either API shows through the other from the cache', async () => {
    const token = await h.login();
    const id = await aLoanTypeId(token);
    const counter = { requests: 0 };
    const options = {
      link: new HttpLink({
        uri: h.graphqlUrl,
        headers: { authorization: `Bearer ${token}` },
        fetch: (...args: Parameters<typeof fetch>) => {
          counter.requests += 1;
          return fetch(...args);
        },
      }),
      cache: new InMemoryCache(),
    };
    // Apollo's own defaults (`cache-first`), as the README shows it.
    const client = new ApolloClient(options as unknown as ApolloClient.Options);
    const typedRate = async () =>
      ((await client.query({ query: TYPED_READ, variables: { id } })).data as { loanType: { rate: number } })
        .loanType.rate;
    const genericRate = async () =>
      (
        (await client.query({ query: GENERIC_READ, variables: { id } })).data as {
          object: { data: { rate: number } };
        }
      ).object.data.rate;
    await typedRate();
    await genericRate();

    await client.mutate({ mutation: GENERIC_WRITE, variables: { id, data: { rate: 7.25 } } });
    let asked = counter.requests;
    expect(await typedRate()).toBe(7.25);
    expect(counter.requests).toBe(asked);

    await client.mutate({ mutation: TYPED_WRITE, variables: { id, rate: 3.5 } });
    asked = counter.requests;
    expect(await genericRate()).toBe(3.5);
    expect(counter.requests).toBe(asked);
  });

  it('urql Graphcache: a write through either API shows through the other from the cache', async () => {
    const token = await h.login();
    const id = await aLoanTypeId(token);
    let requests = 0;
    const client = new Client({
      url: h.graphqlUrl,
      // Graphcache at its defaults: entities keyed by __typename and id, no schema, no updaters.
      exchanges: [graphcacheExchange(), fetchExchange],
      fetch: (...args: Parameters<typeof fetch>) => {
        requests += 1;
        return fetch(...args);
      },
      fetchOptions: () => ({ headers: { authorization: `Bearer ${token}` } }),
    });
    const typedRate = async () =>
      ((await client.query(TYPED_READ, { id }).toPromise()).data as { loanType: { rate: number } }).loanType
        .rate;
    const genericRate = async () =>
      ((await client.query(GENERIC_READ, { id }).toPromise()).data as { object: { data: { rate: number } } })
        .object.data.rate;
    await typedRate();
    await genericRate();

    expect(
      (await client.mutation(GENERIC_WRITE, { id, data: { rate: 8.5 } }).toPromise()).error,
    ).toBeUndefined();
    let asked = requests;
    expect(await typedRate()).toBe(8.5);
    expect(requests).toBe(asked);

    expect((await client.mutation(TYPED_WRITE, { id, rate: 1.75 }).toPromise()).error).toBeUndefined();
    asked = requests;
    expect(await genericRate()).toBe(1.75);
    expect(requests).toBe(asked);
  });

  it("urql: the document cache asks again for what holds the written record's either type", async () => {
    const token = await h.login();
    const id = await aLoanTypeId(token);
    const client = new Client({
      url: h.graphqlUrl,
      exchanges: [cacheExchange, fetchExchange],
      fetchOptions: () => ({ headers: { authorization: `Bearer ${token}` } }),
    });
    const typedRate = async () =>
      (
        (await client.query(TYPED_READ, { id }).toPromise()).data as {
          loanType: { rate: number };
        }
      ).loanType.rate;
    await typedRate();
    const written = await client.mutation(GENERIC_WRITE, { id, data: { rate: 6.75 } }).toPromise();
    expect(written.error).toBeUndefined();
    expect(await typedRate()).toBe(6.75);
  });
});

describe('one record through both APIs, under RELAY_NODE', () => {
  const relay = useHarness({ env: { RELAY_NODE: 'true' } });

  it('should lead from an upstream id to the typed global id, and from it back to the generic one', async () => {
    const auth = await relay.loginHeaders();
    const page = await relay.post(
      '{ objects(objectName: "com.example.LoanType", first: 1) { nodes { upstreamId } } }',
      {},
      auth,
    );
    const upstreamId = (page.data as { objects: { nodes: { upstreamId: string }[] } }).objects.nodes[0]
      ?.upstreamId;
    const generic = await relay.post(
      `query ($id: ID!) { object(objectName: "com.example.LoanType", id: $id) { id typed { ... on LoanType { id upstreamId } } } }`,
      { id: upstreamId },
      auth,
    );
    expect(generic.errors).toBeUndefined();
    const object = (generic.data as { object: { id: string; typed: { id: string; upstreamId: string } } })
      .object;
    expect(object.typed.upstreamId).toBe(upstreamId);
    expect(object.typed.id).not.toBe(object.id);
    // Relay refetches either by its own global id, and each leads to the other.
    const typed = await relay.post(
      'query ($id: ID!) { node(id: $id) { __typename ... on LoanType { dataObject { id } } } }',
      { id: object.typed.id },
      auth,
    );
    expect(typed.data).toEqual({ node: { __typename: 'LoanType', dataObject: { id: object.id } } });
  });
});
