/**
 * Peer M1: Mercurius (Fastify's own GraphQL plugin) with graphql-jit compiling every document on its first
 * request, and the floor's schema and resolvers (`floor-schema.ts`, as F1): what the same fields cost on
 * the other common compiled-execution stack. Mercurius's defaults otherwise (its parse and validation
 * cache, no GraphiQL); no sessions, loaders, logging, metrics or limits.
 *
 * Env: `PORT`, `UPSTREAM_URL`, `APPLICATION_CODE`, `ORGANIZATION_CODE`. Credentials per request from the
 * `x-upstream-token` and `x-upstream-username` headers, as for P1–P3.
 */
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { createFloorSchema, type FloorContext } from './floor-schema.ts';
import { credentialsFrom, readPeerSettings } from './peer-schema.ts';
import { closeOnSignals } from '../../support/close-on-signals.ts';

const settings = readPeerSettings(process.env);

const app = Fastify({ logger: false });
await app.register(mercurius, {
  schema: createFloorSchema(settings),
  // Compiled once a document has been seen once: every measured request runs the compiled function.
  jit: 1,
  graphiql: false,
  context: (request): FloorContext => ({ credentials: credentialsFrom(request.raw) }),
});
closeOnSignals(() => app.close());
await app.listen({ port: settings.port, host: '127.0.0.1' });
console.log(`M1 peer (Fastify + Mercurius + graphql-jit) listening on ${String(settings.port)}`);
