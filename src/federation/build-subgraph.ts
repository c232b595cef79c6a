/**
 * The schema as an Apollo Federation 2 subgraph (`FEDERATION=true`): every typed object type is an entity
 * keyed by `id`, the generic `DataObject` one keyed by `objectName id`, and each is resolved by
 * `__resolveReference` through the request's batching loader, so the references of one `_entities` call to
 * one type cost one upstream `getAll` (split only by the loader's size and URL limits). Composes beside other
 * subgraphs: the connection helper types are `@shareable`, and `FEDERATION_NAME_PREFIX` renames the session
 * API's names that another subgraph commonly has (`name-prefix.ts`).
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import { addResolversToSchema } from '@graphql-tools/schema';
import { mergeResolvers } from '@graphql-tools/merge';
import { Kind, parse, visit, type DirectiveNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from '../graphql/context.ts';
import type { DataObjectModel } from '../objects/mappers.ts';
import type { ObjectTypeSpec } from '../typed/spec/object-type-spec.ts';
import { badUserInput } from '../errors/graphql-errors.ts';
import { withIndefiniteArticle } from '../errors/indefinite-article.ts';
import { LOGIN_FIELD_EXTENSION } from '../limits/single-login-rule.ts';
import { readObject, toModel } from '../objects/read-object.ts';
import { argumentTarget } from '../typed/relay-node-resolvers.ts';
import { UPSTREAM_ID_FIELD } from '../typed/relay-node-sdl.ts';
import { prefixedFieldName, prefixResolvers, prefixTypeDefs } from './name-prefix.ts';
import { globalIdTypeOf } from '../typed/upstream-id-arguments.ts';

/** The Federation version this subgraph declares (`@link`). */
const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.3';

/** The key of the generic `DataObject`: an id is unique only within its object type. */
const DATA_OBJECT_KEY = 'objectName id';

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

/** What changes the subgraph beyond the defaults. */
export interface SubgraphOptions {
  /** `FEDERATION_NAME_PREFIX`: rename the session API's root fields and types (`name-prefix.ts`). */
  namePrefix?: string | undefined;
  /** `RELAY_NODE`: `id` is a global id; entities are also keyed by `upstreamId`. */
  relayNode?: boolean | undefined;
}

/** The types every connection of a supergraph shares: `PageInfo` and the connection and edge types. */
function shareableTypeNames(specs: readonly ObjectTypeSpec[]): Set<string> {
  return new Set([
    'PageInfo',
    'DataObjectConnection',
    'DataObjectEdge',
    ...specs.flatMap((spec) => [spec.names.connection, spec.names.edge]),
  ]);
}

const SHAREABLE: DirectiveNode = { kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: 'shareable' } };

/**
 * The SDL with the `@link` to Federation, the `@key`s of every entity, `@shareable` on the connection helper
 * types (a `PageInfo` in another subgraph composes beside this one), and the renames of `namePrefix`.
 */
function federatedTypeDefs(
  document: DocumentNode,
  specs: readonly ObjectTypeSpec[],
  options: SubgraphOptions = {},
): DocumentNode {
  const relay = options.relayNode === true;
  const keys = new Map<string, string[]>(
    specs.map((spec) => [spec.typeName, relay ? ['id', UPSTREAM_ID_FIELD] : ['id']]),
  );
  keys.set('DataObject', relay ? [DATA_OBJECT_KEY, `objectName ${UPSTREAM_ID_FIELD}`] : [DATA_OBJECT_KEY]);
  const shareable = shareableTypeNames(specs);
  const link = parse(
    `extend schema @link(url: "${FEDERATION_SPEC_URL}", import: ["@key", "@shareable"])`,
  ).definitions;
  const federated = visit(document, {
    ObjectTypeDefinition(node) {
      const added = [
        ...(keys.get(node.name.value) ?? []).map(keyDirective),
        ...(shareable.has(node.name.value) ? [SHAREABLE] : []),
      ];
      return added.length === 0 ? undefined : { ...node, directives: [...(node.directives ?? []), ...added] };
    },
  });
  const linked = { ...federated, definitions: [...link, ...federated.definitions] };
  return options.namePrefix === undefined ? linked : prefixTypeDefs(linked, options.namePrefix);
}

/** A reference as the router sends it (unvalidated). */
interface EntityReference {
  id?: unknown;
  upstreamId?: unknown;
  objectName?: unknown;
}

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/**
 * The upstream id a reference names: its `upstreamId`, or its `id`, which under `RELAY_NODE` is a global id
 * of `typeName` (another type's or a malformed one is `BAD_USER_INPUT`).
 */
function upstreamIdOf(
  reference: EntityReference,
  typeName: string,
  byType: ReadonlyMap<string, ObjectTypeSpec> | null,
): string | null {
  const upstreamId = nonEmpty(reference.upstreamId);
  if (upstreamId !== null && byType !== null) {
    const type = globalIdTypeOf(upstreamId, byType);
    if (type !== undefined) {
      throw badUserInput(
        `a representation of ${typeName} holds a global id (the \`id\` of ${withIndefiniteArticle(type)}) as its upstreamId: key it by \`id\`, or give the upstream id.`,
        'representations',
      );
    }
  }
  if (upstreamId !== null || byType === null) return upstreamId ?? nonEmpty(reference.id);
  if (nonEmpty(reference.id) === null) return null;
  const target = argumentTarget(reference.id, 'representations', byType);
  if (target.nodeType !== typeName)
    throw badUserInput(
      `a representation of ${typeName} holds the global id of ${withIndefiniteArticle(target.nodeType)}`,
      'representations',
    );
  if (typeName === 'DataObject' && target.objectName !== reference.objectName) {
    throw badUserInput("a DataObject representation whose objectName is not its id's", 'representations');
  }
  return target.id;
}

/**
 * The resolvers `buildSubgraphSchema` takes beside the type definitions, read off its public signature: the
 * package exports no name for them (only its internal `dist/` paths do).
 */
type SubgraphResolvers = NonNullable<
  Extract<Parameters<typeof buildSubgraphSchema>[0], { typeDefs: unknown }>['resolvers']
>;

/** `__resolveReference` of every entity, through the object service (the request's loaders). */
function entityResolvers(specs: readonly ObjectTypeSpec[], options: SubgraphOptions = {}): SubgraphResolvers {
  const byType = options.relayNode === true ? new Map(specs.map((spec) => [spec.typeName, spec])) : null;
  const resolve =
    (typeName: string, objectNameOf: (reference: EntityReference) => string | null) =>
    async (reference: EntityReference, ctx: GraphQLContext): Promise<DataObjectModel | null> => {
      const objectName = objectNameOf(reference);
      const id = upstreamIdOf(reference, typeName, byType);
      if (objectName === null || id === null) return null;
      return toModel(objectName, await readObject(ctx.requireSession(), objectName, id));
    };
  const resolvers: Record<string, { __resolveReference: ReturnType<typeof resolve> }> = {
    DataObject: { __resolveReference: resolve('DataObject', ({ objectName }) => nonEmpty(objectName)) },
  };
  for (const spec of specs) {
    resolvers[spec.typeName] = { __resolveReference: resolve(spec.typeName, () => spec.objectName) };
  }
  return resolvers;
}

/**
 * `_entities` refuses a representation of a type the schema lacks before any lookup starts. @apollo/subgraph
 * maps the representations one by one and throws at such a type, dropping the lookups already started
 * unawaited: their rejections were unhandled, which ends a Node process (every caller's) — one request
 * with a bad global id and then an unknown type did it.
 */
function checkRepresentationTypesFirst(schema: GraphQLSchema): void {
  const entities = schema.getQueryType()?.getFields()._entities;
  const resolve = entities?.resolve;
  if (entities === undefined || resolve === undefined) return;
  entities.resolve = (
    source,
    args: { representations?: readonly { __typename?: unknown }[] },
    context,
    info,
  ) => {
    for (const representation of args.representations ?? []) {
      const typeName = representation.__typename;
      const type = typeof typeName === 'string' ? schema.getType(typeName) : undefined;
      // By tag, not `isObjectType`: under vitest @apollo/subgraph's graphql-js is another copy than this file's.
      const tag = type === undefined ? '' : Object.prototype.toString.call(type);
      const entity = tag === '[object GraphQLObjectType]' || tag === '[object GraphQLInterfaceType]';
      if (!entity) {
        throw badUserInput(
          `a representation names ${typeof typeName === 'string' ? `the type ${JSON.stringify(typeName.slice(0, 100))}, which this subgraph does not have` : 'no __typename'}`,
          'representations',
        );
      }
    }
    return resolve(source, args, context, info);
  };
}

/** Builds the subgraph schema from the gateway's SDL and resolvers. */
export function buildSubgraph(
  document: DocumentNode,
  resolvers: readonly Resolvers[],
  specs: readonly ObjectTypeSpec[],
  options: SubgraphOptions = {},
): GraphQLSchema {
  const { namePrefix } = options;
  // @apollo/subgraph adds `_service` and `_entities` and keeps each `__resolveReference` where `_entities`
  // looks for it; the rest are added in place, as graphql-tools does for `makeExecutableSchema` (scalars and
  // enums included).
  const schema = buildSubgraphSchema({
    typeDefs: federatedTypeDefs(document, specs, options),
    resolvers: entityResolvers(specs, options),
  });
  checkRepresentationTypesFirst(schema);
  const renamed = namePrefix === undefined ? [...resolvers] : prefixResolvers(resolvers, namePrefix);
  const built = addResolversToSchema({
    schema,
    resolvers: mergeResolvers(renamed),
    updateResolversInPlace: true,
  });
  if (namePrefix === undefined) return built;
  // Same types (and resolvers), plus the login field's new name for `single-login-rule.ts`. Built with the
  // schema's own class: under vitest @apollo/subgraph's graphql-js is another copy than this file's.
  const Schema = built.constructor as typeof GraphQLSchema;
  return new Schema({
    ...built.toConfig(),
    extensions: { ...built.extensions, [LOGIN_FIELD_EXTENSION]: prefixedFieldName(namePrefix, 'login') },
  });
}
