/**
 * The gateway's whole schema as SDL, built exactly as the server builds it (generic SDL + typed API).
 *
 * - GraphQL Code Generator loads this module as its `schema` (codegen.yml), so the generated resolver types
 *   and `npm run check:codegen` cover the typed API too.
 * - `npm run schema:print > schema.graphql` writes it for front-end tools (GraphQL Code Generator's client
 *   preset, IDE plugins) that work from a file instead of the introspection endpoint.
 * - `npm run -s schema:print -- --federation` prints the Federation 2 subgraph SDL (`FEDERATION=true`: `@link`,
 *   `@key` on every entity) for a team's composition pipeline (`rover subgraph publish`, `hive schema:publish`,
 *   `wgc subgraph publish`). Add `--relay-node` for `RELAY_NODE=true` and `--name-prefix <Prefix>` for
 *   `FEDERATION_NAME_PREFIX`, so the printed SDL is the running subgraph's.
 * - From the command line it reads the gateway's `OBJECT_TYPES_DIR` as the gateway does (the printed schema
 *   is the one it serves); the default export, codegen's, is always the repository's `schema/objects/`.
 */
import { printSubgraphSchema } from '@apollo/subgraph';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/app/build-schema.ts';
import { SERVER_SETTINGS } from '../src/config/server-settings.ts';

/** The SDL of the full schema (code-file-loader reads the default export). */
const sdl = printSchema(buildSchema());
export default sdl;

if (import.meta.main) {
  const args = process.argv.slice(2);
  const federation = args.includes('--federation');
  const relayNode = args.includes('--relay-node');
  const prefixAt = args.indexOf('--name-prefix');
  const federationNamePrefix = prefixAt === -1 ? undefined : args[prefixAt + 1];
  const given = process.env.OBJECT_TYPES_DIR;
  const objectsDir = SERVER_SETTINGS.objectTypesDir.schema.parse(given === '' ? undefined : given);
  const schema = buildSchema({ federation, relayNode, federationNamePrefix, objectsDir });
  process.stdout.write(`${federation ? printSubgraphSchema(schema) : printSchema(schema)}\n`);
}
