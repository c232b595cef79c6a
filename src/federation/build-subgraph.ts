/**
 * The schema as an Apollo Federation 2 subgraph (`FEDERATION=true`): every typed object type is an entity
 * keyed by `id`, the generic `DataObject` one keyed by `objectName id`, and each is resolved by
 * `__resolveReference` through the request's batching loader, so the references of one `_entities` call to
 * one type cost one upstream `getAll` (split only by the loader's size and URL limits).
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { addResolversToSchema } from '@graphql-tools/schema';
import { mergeResolvers } from '@graphql-tools/merge';
import { Kind, parse, visit, type DirectiveNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from '../graphql/context.ts';
import type { DataObjectModel } from '../resolvers/mappers.ts';
import type { ObjectTypeSpec } from '../typed/object-type-spec.ts';
import { readObject, toModel } from '../objects/read-object.ts';

/** The Federation version this subgraph declares (`@link`). */
export const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.3';

/** The key of the generic `DataObject`: an id is unique only within its object type. */
export const DATA_OBJECT_KEY = 'objectName id';

/** One resolver map, as `mergeResolvers` takes them. */
type Resolvers = Exclude<
  Parameters<typeof mergeResolvers<unknown, GraphQLContext>>[0],
  unknown[] | null | undefined
>;

function keyDirective(fields: string): DirectiveNode {
  return {
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: 'key' },
    arguments: [
      {
        kind: Kind.ARGUMENT,
        name: { kind: Kind.NAME, value: 'fields' },
        value: { kind: Kind.STRING, value: fields },
      },
    ],
  };
}

/** The SDL with the `@link` to Federation and a `@key` on every entity. */
export function federatedTypeDefs(
  typeDefs: readonly string[],
  specs: readonly ObjectTypeSpec[],
): DocumentNode {
  const keys = new Map<string, string>(specs.map((spec) => [spec.typeName, 'id']));
  keys.set('DataObject', DATA_OBJECT_KEY);
  const link = `extend schema @link(url: "${FEDERATION_SPEC_URL}", import: ["@key"])`;
  return visit(parse([link, ...typeDefs].join('\n')), {
    ObjectTypeDefinition(node) {
      const fields = keys.get(node.name.value);
      return fields === undefined
        ? undefined
        : { ...node, directives: [...(node.directives ?? []), keyDirective(fields)] };
    },
  });
}

/** A reference as the router sends it (unvalidated). */
interface EntityReference {
  id?: unknown;
  objectName?: unknown;
}

function idOf(reference: EntityReference): string | null {
  const { id } = reference;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** `__resolveReference` of every entity, through the object service (the request's loaders). */
export function entityResolvers(specs: readonly ObjectTypeSpec[]): GraphQLResolverMap<unknown> {
  const resolve =
    (objectNameOf: (reference: EntityReference) => string | null) =>
    async (reference: EntityReference, ctx: GraphQLContext): Promise<DataObjectModel | null> => {
      const objectName = objectNameOf(reference);
      const id = idOf(reference);
      if (objectName === null || id === null) return null;
      return toModel(objectName, await readObject(ctx.requireSession(), objectName, id));
    };
  const resolvers: Record<string, { __resolveReference: ReturnType<typeof resolve> }> = {
    DataObject: {
      __resolveReference: resolve(({ objectName }) =>
        typeof objectName === 'string' && objectName !== '' ? objectName : null,
      ),
    },
  };
  for (const spec of specs) resolvers[spec.typeName] = { __resolveReference: resolve(() => spec.objectName) };
  return resolvers;
}

/** Builds the subgraph schema from the gateway's SDL and resolvers. */
export function buildSubgraph(
  typeDefs: readonly string[],
  resolvers: readonly Resolvers[],
  specs: readonly ObjectTypeSpec[],
): GraphQLSchema {
  // @apollo/subgraph adds `_service` and `_entities` and keeps each `__resolveReference` where `_entities`
  // looks for it; the rest are added in place, as graphql-tools does for `makeExecutableSchema` (scalars and
  // enums included).
  const schema = buildSubgraphSchema({
    typeDefs: federatedTypeDefs(typeDefs, specs),
    resolvers: entityResolvers(specs),
  });
  return addResolversToSchema({
    schema,
    resolvers: mergeResolvers([...resolvers]),
    updateResolversInPlace: true,
  });
}
