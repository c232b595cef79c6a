/**
 * The same journey through each mainstream client, built as its documentation shows and left to its defaults,
 * against the real gateway on the real emulator over loopback: Apollo Client 4 (POST for everything) and
 * urql 6 (`@urql/core`: GET for queries within the URL limit, POST for mutations). The HTTP method of every
 * request is recorded, so the test fails if a client stops using its default.
 */
import {
  ApolloClient,
  HttpLink,
  InMemoryCache,
  type OperationVariables,
  type TypedDocumentNode,
} from '@apollo/client';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import type { DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes } from '../support/graphql-errors.ts';
import {
  LoginDocument,
  MeDocument,
  ObjectDocument,
  ObjectsDocument,
  SaveDocument,
} from '../support/operations.ts';
import { LoanTypesDocument } from '../support/typed-operations.ts';

/** What one operation answered, whatever the client: its data and the codes of its errors. */
interface Answer<T> {
  data: T | undefined;
  codes: unknown[];
}

/** The journey's view of a client: one per session, as a front-end makes one after login. */
interface JourneyClient {
  query<T, V extends Record<string, unknown>>(
    document: TypedDocumentNode<T, V>,
    variables: V,
  ): Promise<Answer<T>>;
  mutate<T, V extends Record<string, unknown>>(
    document: TypedDocumentNode<T, V>,
    variables: V,
  ): Promise<Answer<T>>;
}

/** `fetch` as is, recording `METHOD operationName` of every request. */
function recordingFetch(sent: string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    let name = url.searchParams.get('operationName');
    if (request.method === 'POST') {
      const body = JSON.parse(await request.clone().text()) as { operationName?: string };
      name = body.operationName ?? null;
    }
    sent.push(`${request.method} ${name ?? '?'}`);
    return fetch(input, init);
  };
}

function apolloClient(url: string, sent: string[], token?: string): JourneyClient {
  const options = {
    link: new HttpLink({
      uri: url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      fetch: recordingFetch(sent),
    }),
    cache: new InMemoryCache(),
  };
  // No `defaultOptions`: the test project declares `errorPolicy: 'all'` for its other clients' types
  // (test/support/apollo-defaults.d.ts), this one keeps Apollo's own defaults.
  const client = new ApolloClient(options as unknown as ApolloClient.Options);
  // Apollo's default error policy (`none`) rejects on GraphQL errors: the journey reads them either way.
  const settle = async (
    run: () => Promise<{ data?: unknown; error?: unknown }>,
  ): Promise<Answer<unknown>> => {
    try {
      const result = await run();
      return { data: result.data, codes: errorCodes(result.error) };
    } catch (error) {
      return { data: undefined, codes: errorCodes(error) };
    }
  };
  return {
    query: async <T, V>(query: TypedDocumentNode<T, V>, variables: V) =>
      (await settle(() =>
        client.query({ query: query as DocumentNode, variables: variables as OperationVariables }),
      )) as Answer<T>,
    mutate: async <T, V>(mutation: TypedDocumentNode<T, V>, variables: V) =>
      (await settle(() =>
        client.mutate({
          mutation: mutation as DocumentNode,
          variables: variables as OperationVariables,
        }),
      )) as Answer<T>,
  };
}

function urqlClient(url: string, sent: string[], token?: string): JourneyClient {
  const client = new Client({
    url,
    exchanges: [cacheExchange, fetchExchange],
    fetch: recordingFetch(sent),
    fetchOptions: () => ({ headers: token ? { authorization: `Bearer ${token}` } : {} }),
  });
  const answer = (result: {
    data?: unknown;
    error?: { graphQLErrors: { extensions: Record<string, unknown> }[] } | undefined;
  }): Answer<unknown> => ({
    data: result.data,
    codes: (result.error?.graphQLErrors ?? []).map((e) => e.extensions.code),
  });
  return {
    query: async <T, V>(query: TypedDocumentNode<T, V>, variables: V) =>
      answer(await client.query(query, variables as OperationVariables).toPromise()) as Answer<T>,
    mutate: async <T, V>(mutation: TypedDocumentNode<T, V>, variables: V) =>
      answer(await client.mutation(mutation, variables as OperationVariables).toPromise()) as Answer<T>,
  };
}

const LOAN = 'com.example.LoanType';
const h = useHarness();

describe.each([
  ['Apollo Client', apolloClient, 'POST'],
  ['urql', urqlClient, 'GET'],
] as const)('%s with its defaults', (_name, makeClient, queryMethod) => {
  it('should log in, read, write and read back, and get coded errors', async () => {
    const sent: string[] = [];
    const anonymous = makeClient(h.graphqlUrl, sent);

    // Before login: `me` is null, a read needs a session, a wrong password is refused.
    expect((await anonymous.query(MeDocument, {})).data).toEqual({ me: null });
    expect((await anonymous.query(ObjectsDocument, { objectName: LOAN, first: 1 })).codes).toEqual([
      'UNAUTHENTICATED',
    ]);
    const refused = await anonymous.mutate(LoginDocument, { username: 'demo', password: 'wrong' });
    expect(refused.codes).toEqual(['UNAUTHENTICATED']);

    const login = await anonymous.mutate(LoginDocument, { username: 'demo', password: 'demo-password' });
    expect(login.codes).toEqual([]);
    const token = login.data!.login.token;
    const client = makeClient(h.graphqlUrl, sent, token);

    const me = await client.query(MeDocument, {});
    expect(me.data?.me).toMatchObject({
      username: 'demo',
      applicationCode: 'demo',
      organizationCode: 'acme',
    });

    const page = await client.query(ObjectsDocument, { objectName: LOAN, first: 3 });
    expect(page.codes).toEqual([]);
    expect(page.data!.objects.totalCount).toBeGreaterThanOrEqual(30);
    expect(page.data!.objects.nodes).toHaveLength(3);

    const typed = await client.query(LoanTypesDocument, { first: 2 });
    expect(typed.codes).toEqual([]);
    expect(typed.data!.loanTypes.edges).toHaveLength(2);

    // A write goes over POST whatever the client prefers for reads, and reads back over its default.
    const saved = await client.mutate(SaveDocument, {
      objectName: LOAN,
      data: { loanType: `client-${queryMethod}`, rate: 1.5 },
    });
    expect(saved.codes).toEqual([]);
    const id = saved.data!.saveObject.id;
    const readBack = await client.query(ObjectDocument, { objectName: LOAN, id });
    expect(readBack.data!.object).toMatchObject({
      id,
      data: { loanType: `client-${queryMethod}`, rate: 1.5 },
    });

    const bad = await client.query(ObjectsDocument, {
      objectName: LOAN,
      filter: { criteria: [{ fieldName: 'loanType', operator: 'in' }] },
    });
    expect(bad.codes).toEqual(['BAD_USER_INPUT']);

    // Every query went over the client's default method, every mutation over POST.
    const methods = new Map(sent.map((line) => [line.split(' ')[1], line.split(' ')[0]]));
    for (const query of ['Me', 'Objects', 'LoanTypes', 'Object'])
      expect(methods.get(query)).toBe(queryMethod);
    for (const mutation of ['Login', 'Save']) expect(methods.get(mutation)).toBe('POST');
    expect(sent.every((line) => !line.endsWith('?'))).toBe(true);
  });
});
