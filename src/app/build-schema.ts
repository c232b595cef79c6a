/**
 * The executable schema: the generic SDL files of `schema/` (the single source of the contract) with their
 * resolvers, plus the typed API generated from the object types of `schema/objects/`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse, type GraphQLSchema } from 'graphql';
import { buildSubgraph } from '../federation/build-subgraph.ts';
import { resolvers } from '../resolvers/index.ts';
import { buildTypedApi } from '../typed/build-typed-api.ts';
import { relayNodeResolvers } from '../typed/relay-node-resolvers.ts';
import { withRelayNode } from '../typed/relay-node-sdl.ts';
import { upstreamIdArguments } from '../typed/upstream-id-arguments.ts';

/** Where the SDL lives, relative to this file. */
const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'schema');

/** Where the typed object types live. */
export const OBJECTS_DIR = join(SCHEMA_DIR, 'objects');

/** Reads every `*.graphql` file of a folder, in name order. */
export function readTypeDefs(dir: string = SCHEMA_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}

/** Options of {@link buildSchema}. */
export interface BuildSchemaOptions {
  /** The folder of the typed object SDL. Default {@link OBJECTS_DIR}. */
  objectsDir?: string;
  /** `FEDERATION`: an Apollo Federation 2 subgraph (entities, `_entities`, `_service`). Default false. */
  federation?: boolean;
  /** `FEDERATION_NAME_PREFIX`, with `federation`: renames the session API (`src/federation/name-prefix.ts`). */
  federationNamePrefix?: string | undefined;
  /** `RELAY_NODE`: Relay's `Node`, global ids, `node` and `nodes` (`src/typed/relay-node-sdl.ts`). Default false. */
  relayNode?: boolean;
}

/**
 * Builds the executable schema. Throws `ObjectSchemaError` (file, line and fix of each mistake) when the
 * typed object SDL cannot be served.
 */
export function buildSchema(options: BuildSchemaOptions = {}): GraphQLSchema {
  const generic = readTypeDefs();
  const typed = buildTypedApi({ dir: options.objectsDir ?? OBJECTS_DIR, baseTypeDefs: generic });
  const typeDefs = [...generic, ...typed.typeDefs];
  const resolverMaps = [...resolvers, typed.resolvers];
  const relayNode = options.relayNode === true;
  if (options.federation === true || relayNode) {
    const parsed = parse(typeDefs.join('\n'));
    const document = relayNode ? withRelayNode(parsed, typed.specs) : parsed;
    // After the typed resolvers: Relay's `id` and the typed `(id:)` arguments replace theirs.
    let maps = resolverMaps;
    if (relayNode) {
      maps = [...maps, relayNodeResolvers(typed.specs, typed.resolvers)];
      // Last: a global id where an upstream id belongs is refused before the resolver it guards.
      maps = [...maps, upstreamIdArguments(typed.specs, maps)];
    }
    if (options.federation === true) {
      return buildSubgraph(document, maps, typed.specs, {
        namePrefix: options.federationNamePrefix,
        relayNode,
      });
    }
    return makeExecutableSchema({ typeDefs: document, resolvers: maps });
  }
  return makeExecutableSchema({ typeDefs, resolvers: resolverMaps });
}
