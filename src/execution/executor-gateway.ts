/**
 * Apollo Server takes an executor of its own only from a gateway: this one serves a fixed schema, loaded
 * once, never updated, with the executor given.
 */
import { printSchema, type GraphQLSchema } from 'graphql';
import type { GatewayExecutor, GatewayInterface } from './compiled-executor.ts';

/** A gateway serving `schema` with `executor`. */
export function executorGateway(schema: GraphQLSchema, executor: GatewayExecutor): GatewayInterface {
  type Listener = Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0];
  const listeners = new Set<Listener>();
  const schemaContext = {
    apiSchema: schema,
    // There is no supergraph: the schema's own SDL, printed only if a plugin reads it.
    get coreSupergraphSdl(): string {
      return printSchema(schema);
    },
  };
  return {
    onSchemaLoadOrUpdate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load() {
      for (const listener of listeners) listener(schemaContext);
      return Promise.resolve({ executor });
    },
    stop() {
      listeners.clear();
      return Promise.resolve();
    },
  };
}
