/**
 * The plugins that keep Apollo Server from installing defaults the gateway never wants. The gateway's Apollo
 * (`create-apollo.ts`) takes them from here, and so does the bench's floor peer, which measures Apollo with
 * the gateway's options (`bench/peers/floor-apollo.ts`): the floor stays the gateway's own configuration.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';

export function apolloDefaultsOff<TContext extends BaseContext>(): ApolloServerPlugin<TContext>[] {
  return [
    // Installed by Apollo when APOLLO_KEY (or APOLLO_SCHEMA_REPORTING) is in the environment: a variable set
    // for something else would send operations or the schema to Apollo's cloud.
    ApolloServerPluginUsageReportingDisabled(),
    ApolloServerPluginSchemaReportingDisabled(),
    // Installed for a federated subgraph's schema: per-field timings in every answer a router asks them for.
    ApolloServerPluginInlineTraceDisabled(),
    // No field sets cache hints, and the plugin wraps every resolver: off.
    ApolloServerPluginCacheControlDisabled(),
  ];
}
