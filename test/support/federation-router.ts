/**
 * An Apollo Router stand-in for the federation tests: Apollo Gateway over a composed supergraph, set up as
 * the README documents (the caller's `Authorization` forwarded to every subgraph), reporting off.
 */
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';

/** What the router keeps of a request: the caller's `Authorization` header. */
interface RouterContext {
  authorization: string | undefined;
}

/** A started router: its GraphQL URL, and how to stop it. */
export interface FederationRouter {
  url: string;
  stop: () => Promise<void>;
}

/** Starts a router on a loopback port over `supergraphSdl`. */
export async function startFederationRouter(supergraphSdl: string): Promise<FederationRouter> {
  const router = new ApolloServer<RouterContext>({
    gateway: new ApolloGateway({
      supergraphSdl,
      // The router setting the README documents: forward the caller's Authorization to the subgraphs.
      buildService: ({ url }) =>
        new RemoteGraphQLDataSource<RouterContext>({
          url,
          willSendRequest({ request, context }) {
            // Health checks and the like carry no caller's context.
            const authorization: unknown = context.authorization;
            if (typeof authorization === 'string') request.http?.headers.set('authorization', authorization);
          },
        }),
    }),
    plugins: [ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginSchemaReportingDisabled()],
  });
  const { url } = await startStandaloneServer(router, {
    listen: { host: '127.0.0.1', port: 0 },
    context: ({ req }) => Promise.resolve({ authorization: req.headers.authorization }),
  });
  return { url, stop: () => router.stop() };
}
