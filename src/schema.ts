/** The executable schema: the SDL files of `schema/` (the single source) with the resolvers. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.ts';

/** Where the SDL lives, relative to this file. */
export const SCHEMA_DIR = join(import.meta.dirname, '..', 'schema');

/** Reads every `*.graphql` file of a folder, in name order. */
export function readTypeDefs(dir: string = SCHEMA_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}

/** Builds the executable schema. */
export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: readTypeDefs(), resolvers });
}
