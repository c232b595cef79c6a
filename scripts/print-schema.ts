/**
 * The gateway's whole schema as SDL, built exactly as the server builds it (generic SDL + typed API).
 *
 * - GraphQL Code Generator loads this module as its `schema` (codegen.yml), so the generated resolver types
 *   and `npm run check:codegen` cover the typed API too.
 * - `npm run schema:print > schema.graphql` writes it for front-end tools (GraphQL Code Generator's client
 *   preset, IDE plugins) that work from a file instead of the introspection endpoint.
 */
import { printSchema } from 'graphql';
import { buildSchema } from '../src/schema.ts';

/** The SDL of the full schema (code-file-loader reads the default export). */
const sdl = printSchema(buildSchema());
export default sdl;

if (import.meta.main) process.stdout.write(`${sdl}\n`);
