/** The page's Apollo Client (core only, no React): the session token goes in `Authorization: Bearer`. */
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { createPersistedLink } from './persisted-link.ts';

/** Options of {@link createGatewayClient}. */
export interface GatewayClientOptions {
  /** The gateway's GraphQL endpoint, e.g. `http://127.0.0.1:4000/graphql`. */
  uri: string;
  /** The current session token, read on every operation (so sign-in and sign-out need no new client). */
  token: () => string | undefined;
}

/**
 * Creates the client. Lists are always read from the network: other people change the same objects. The
 * production build sends document ids only (see `persisted-link.ts`); the dev server sends the texts, so
 * an operation being edited runs before it is in a manifest.
 */
export function createGatewayClient(options: GatewayClientOptions): ApolloClient {
  const auth = new SetContextLink((previous) => {
    const token = options.token();
    return token === undefined
      ? {}
      : {
          headers: {
            ...(previous.headers as Record<string, string> | undefined),
            authorization: `Bearer ${token}`,
          },
        };
  });
  return new ApolloClient({
    link: ApolloLink.from([
      auth,
      ...(import.meta.env.PROD ? [createPersistedLink()] : []),
      new HttpLink({ uri: options.uri }),
    ]),
    cache: new InMemoryCache(),
    defaultOptions: { query: { fetchPolicy: 'network-only' } },
  });
}
