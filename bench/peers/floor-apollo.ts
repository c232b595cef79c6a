/**
 * Peer F1, the floor: what Fastify 5 + `@as-integrations/fastify` + Apollo Server 5 cost with the
 * gateway's Apollo options (`src/app/create-gateway.ts`: CSRF prevention off, no batching, no stack traces,
 * schema details hidden, the drain plugin, usage/schema reporting, inline traces, cache control and
 * suggestions off, no landing page, introspection off) and each field doing what P1 does by hand: one
 * undici `Pool` request, the JSONP wrapper sliced off, `JSON.parse` (`floor-schema.ts`). No sessions,
 * loaders, logging, metrics or limits.
 *
 * Peer F1J is F1 executing with the gateway's compiled executor (`COMPILED_EXECUTION=true`,
 * `src/execution/compiled-executor.ts`) through Apollo's gateway interface, as the gateway does. Peer F1C
 * is F1J answering every read from memory after its first call (`FLOOR_MEMO=true`, `floor-schema.ts`): the
 * ceiling of a response cache on Apollo Server.
 *
 * Env: `PORT`, `UPSTREAM_URL`, `APPLICATION_CODE`, `ORGANIZATION_CODE`, `COMPILED_EXECUTION`, `FLOOR_MEMO`. Credentials
 * per request from the `x-upstream-token` and `x-upstream-username` headers, as for P1–P3.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDisableSuggestions } from '@apollo/server/plugin/disableSuggestions';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify from 'fastify';
import { apolloDefaultsOff } from '../../src/graphql/apollo-defaults-off.ts';
import { createCompiledExecutor } from '../../src/execution/compiled-executor.ts';
import { executorGateway } from '../../src/execution/executor-gateway.ts';
import { createFloorSchema, type FloorContext } from './floor-schema.ts';
import { credentialsFrom, readPeerSettings } from './peer-schema.ts';
import { closeOnSignals } from '../../support/close-on-signals.ts';

const settings = readPeerSettings(process.env);

const app = Fastify({ logger: false });
const schema = createFloorSchema(settings, process.env.FLOOR_MEMO === 'true');
const apollo = new ApolloServer<FloorContext>({
  ...(process.env.COMPILED_EXECUTION === 'true'
    ? { gateway: executorGateway(schema, createCompiledExecutor(schema)) }
    : { schema }),
  introspection: false,
  csrfPrevention: false,
  allowBatchedHttpRequests: false,
  includeStacktraceInErrorResponses: false,
  stopOnTerminationSignals: false,
  hideSchemaDetailsFromClientErrors: true,
  plugins: [
    fastifyApolloDrainPlugin(app),
    ...apolloDefaultsOff<FloorContext>(),
    ApolloServerPluginDisableSuggestions(),
    ApolloServerPluginLandingPageDisabled(),
  ],
});
await apollo.start();
await app.register(fastifyApollo(apollo), {
  path: '/graphql',
  method: ['GET', 'POST', 'OPTIONS'],
  context: (request) => Promise.resolve({ credentials: credentialsFrom(request.raw) }),
});
closeOnSignals(() => app.close());
await app.listen({ port: settings.port, host: '127.0.0.1' });
console.log(`floor peer (Fastify + Apollo) listening on ${String(settings.port)}`);
