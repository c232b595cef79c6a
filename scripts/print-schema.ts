/**
 * The gateway's whole schema as SDL, built exactly as the server builds it (generic SDL + typed API).
 *
 * - GraphQL Code Generator loads this module as its `schema` (codegen.ts), so the generated resolver types
 *   and `npm run check:codegen` cover the typed API too.
 * - `npm run schema:print > schema.graphql` writes it for front-end tools (GraphQL Code Generator's client
 *   preset, IDE plugins) that work from a file instead of the introspection endpoint.
 * - `npm run -s schema:print -- --federation` prints the Federation 2 subgraph SDL (`FEDERATION=true`: `@link`,
 *   `@key` on every entity) for a team's composition pipeline (`rover subgraph publish`, `hive schema:publish`,
 *   `wgc subgraph publish`).
 */
import { printSubgraphSchema } from '@apollo/subgraph';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/graphql/schema.ts';

/** The SDL of the full schema (code-file-loader reads the default export). */
const sdl = printSchema(buildSchema());
export default sdl;

if (import.meta.main) {
  const federation = process.argv.includes('--federation');
  process.stdout.write(`${federation ? printSubgraphSchema(buildSchema({ federation })) : sdl}\n`);
}
