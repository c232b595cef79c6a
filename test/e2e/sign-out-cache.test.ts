/**
 * Signing out as the README's clients section says, against the real gateway and emulator: the gateway ends
 * the session, but each client's cache still holds what the signed-in user read and answers it again at its
 * defaults. Clearing it as shown (Apollo Client's `clearStore`, a new urql `Client`, a new Relay
 * `Environment`) asks the gateway again, which answers the signed-out `me`: `null`.
 */
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import type { DocumentNode } from 'graphql';
import { createOperationDescriptor, fetchQuery, type Environment } from 'relay-runtime';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { relayEnvironment } from '../support/relay-environment.ts';
import { MeDocument } from '../support/operations.ts';
import { CustomerListQuery } from './relay-artifacts.ts';

const h = useHarness({ env: { RELAY_NODE: 'true' } });

/** The app's session, as a front-end keeps it: the token in memory, read by every request. */
interface Session {
  token: string | undefined;
}

/** Headers of the app's current session. */
function authorization(session: Session): Record<string, string> {
  return session.token === undefined ? {} : { authorization: `Bearer ${session.token}` };
}

/** `fetch` counting the requests that reach the gateway. */
function countingFetch(counter: { requests: number }): typeof fetch {
  return (input, init) => {
    counter.requests += 1;
    return fetch(input, init);
  };
}

async function signIn(session: Session): Promise<string> {
  session.token = await h.login();
  return session.token;
}

async function signOut(session: Session): Promise<void> {
  const answer = await h.post('mutation { logout }', {}, authorization(session));
  expect(answer.data).toEqual({ logout: true });
  session.token = undefined;
}

describe('signing out clears the client cache', () => {
  it('Apollo Client: clearStore() after logout', async () => {
    const session: Session = { token: undefined };
    const counter = { requests: 0 };
    const options = {
      link: new HttpLink({
        uri: h.graphqlUrl,
        fetch: (input, init) =>
          countingFetch(counter)(input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), ...authorization(session) },
          }),
      }),
      cache: new InMemoryCache(),
    };
    // Apollo's own defaults, as the README shows it (the test project declares `defaultOptions` required:
    // test/support/apollo-defaults.d.ts).
    const client = new ApolloClient(options as unknown as ApolloClient.Options);
    await signIn(session);
    const before = await client.query({ query: MeDocument as DocumentNode });
    expect((before.data as { me: { username: string } }).me.username).toBe('demo');

    await signOut(session);
    const asked = counter.requests;
    // At its defaults (`cache-first`), the same query answers the signed-out page from the cache.
    const cached = await client.query({ query: MeDocument as DocumentNode });
    expect((cached.data as { me: { username: string } }).me.username).toBe('demo');
    expect(counter.requests).toBe(asked);

    await client.clearStore();
    const after = await client.query({ query: MeDocument as DocumentNode });
    expect(after.data).toEqual({ me: null });
    expect(counter.requests).toBe(asked + 1);
  });

  it('urql: a new Client after logout', async () => {
    const session: Session = { token: undefined };
    const counter = { requests: 0 };
    const makeClient = (): Client =>
      new Client({
        url: h.graphqlUrl,
        exchanges: [cacheExchange, fetchExchange],
        fetch: countingFetch(counter),
        fetchOptions: () => ({ headers: authorization(session) }),
      });
    let client = makeClient();
    await signIn(session);
    const before = await client.query(MeDocument, {}).toPromise();
    expect(before.data?.me?.username).toBe('demo');

    await signOut(session);
    const asked = counter.requests;
    // The document cache answers the same query again (it is invalidated by a mutation's typenames only).
    const cached = await client.query(MeDocument, {}).toPromise();
    expect(cached.data?.me?.username).toBe('demo');
    expect(counter.requests).toBe(asked);

    client = makeClient();
    const after = await client.query(MeDocument, {}).toPromise();
    expect(after.data).toEqual({ me: null });
    expect(counter.requests).toBe(asked + 1);
  });

  it("Relay: a new Environment after logout, so the old store's records are gone", async () => {
    const session: Session = { token: undefined };
    const makeEnvironment = (): Environment => relayEnvironment(h.graphqlUrl, () => authorization(session));
    let environment = makeEnvironment();
    await signIn(session);
    const list = createOperationDescriptor(CustomerListQuery, {});
    environment.retain(list);
    await fetchQuery(environment, CustomerListQuery, {}).toPromise();
    expect(environment.check(list).status).toBe('available');

    await signOut(session);
    // `useLazyLoadQuery`'s default (`store-or-network`) would render the signed-in user's customers again.
    expect(environment.check(list).status).toBe('available');

    environment = makeEnvironment();
    expect(environment.check(list).status).toBe('missing');
    await expect(fetchQuery(environment, CustomerListQuery, {}).toPromise()).rejects.toThrow(
      /Authentication required/,
    );
  });
});
