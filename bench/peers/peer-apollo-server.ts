/**
 * The Apollo Server the standalone peers (P2 naive, P3 data sources) run: the peer schema, with the
 * production settings a team would turn on (introspection off, no landing page, no usage reporting).
 */
import { ApolloServer, type BaseContext } from '@apollo/server';
import {
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { peerTypeDefs } from './peer-schema.ts';

/** An Apollo Server for {@link peerTypeDefs} with `resolvers`, introspection off, no landing page or reporting. */
export function peerApolloServer<Context extends BaseContext>(
  resolvers: NonNullable<ConstructorParameters<typeof ApolloServer<Context>>[0]['resolvers']>,
): ApolloServer<Context> {
  return new ApolloServer<Context>({
    typeDefs: peerTypeDefs,
    resolvers,
    introspection: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginUsageReportingDisabled()],
  });
}
