/**
 * `RELAY_NODE=true`: a global id where an upstream id belongs is the caller's mistake, answered as
 * `BAD_USER_INPUT` naming both kinds of id before any upstream call, not a silent `null` (the upstream
 * has no object of that id). The arguments that take an upstream id are the ones that name the object type
 * beside the id, and the conditions and references written in upstream terms: `object(objectName, id)`,
 * `metadata(objectId)`, `updateObject(id)`, `saveObject(data: { _id })`, every value of a `filter`, the
 * `id` conditions of a typed `where` (`id`, a reference's `id`), and the reference fields of typed inputs.
 * A global id is recognised as the typed `<type>(id:)` recognises another type's: by `nodeTargetOf`.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { GraphQLContext } from '../graphql/context.ts';
import { badUserInput } from '../errors/graphql-errors.ts';
import { isJsonObject } from '../upstream/client/answers/response-schemas.ts';
import type { ExecutableResolvers } from './build-typed-resolvers.ts';
import { GlobalIdError } from './global-id.ts';
import { nodeTargetOf } from './relay-node-resolvers.ts';
import { withIndefiniteArticle } from '../errors/indefinite-article.ts';
import { isFilterable, type ObjectTypeSpec } from './spec/object-type-spec.ts';

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphQLContext, Args>;

/** The type a global id of this gateway names (`Order`, `DataObject`); `undefined` for any other value. */
export function globalIdTypeOf(
  value: unknown,
  byType: ReadonlyMap<string, ObjectTypeSpec>,
): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return nodeTargetOf(value, byType).nodeType;
  } catch (error) {
    if (error instanceof GlobalIdError) return undefined;
    throw error;
  }
}

/** Where a value was given: shown in the message (`filter.criteria[0].value`) and its argument's name. */
interface Place {
  shown: string;
  argument: string;
  /** What takes the upstream id, for the message: `object(objectName, id)`, `a filter`. */
  takes: string;
}

/** Refuses `value` when it is a global id of this gateway. */
function refuseGlobalId(value: unknown, place: Place, byType: ReadonlyMap<string, ObjectTypeSpec>): void {
  const type = globalIdTypeOf(value, byType);
  if (type === undefined) return;
  throw badUserInput(
    `"${place.shown}" is a global id (the \`id\` of ${withIndefiniteArticle(type)}), but ${place.takes} takes an upstream id: pass the object's \`upstreamId\`.`,
    place.argument,
  );
}

/** Every value of a generic `filter` (`criteria[i].value`, `criteria[i].values[j]`). */
function refuseInFilter(filter: unknown, takes: string, byType: ReadonlyMap<string, ObjectTypeSpec>): void {
  if (!isJsonObject(filter) || !Array.isArray(filter.criteria)) return;
  filter.criteria.forEach((criterion: unknown, i) => {
    if (!isJsonObject(criterion)) return;
    const at = `filter.criteria[${String(i)}]`;
    refuseGlobalId(criterion.value, { shown: `${at}.value`, argument: 'filter', takes }, byType);
    if (Array.isArray(criterion.values)) {
      criterion.values.forEach((value: unknown, j) => {
        const shown = `${at}.values[${String(j)}]`;
        refuseGlobalId(value, { shown, argument: 'filter', takes }, byType);
      });
    }
  });
}

/** The `equals` and `in` of an `IDFilter` at `source`. */
function refuseInIdFilter(
  filter: unknown,
  source: string,
  takes: string,
  byType: ReadonlyMap<string, ObjectTypeSpec>,
): void {
  if (!isJsonObject(filter)) return;
  for (const operator of ['equals', 'matches', 'contains', 'startsWith', 'endsWith']) {
    refuseGlobalId(filter[operator], { shown: `${source}.${operator}`, argument: 'where', takes }, byType);
  }
  if (Array.isArray(filter.in)) {
    filter.in.forEach((value: unknown, i) => {
      refuseGlobalId(value, { shown: `${source}.in[${String(i)}]`, argument: 'where', takes }, byType);
    });
  }
}

/** The `id` conditions of a typed `where`: its `id`, and each reference's `id`. */
function refuseInWhere(
  where: unknown,
  spec: ObjectTypeSpec,
  byType: ReadonlyMap<string, ObjectTypeSpec>,
): void {
  if (!isJsonObject(where)) return;
  const takes = `${spec.names.plural}(where:)`;
  for (const field of spec.fields.filter(isFilterable)) {
    if (field.kind === 'id') refuseInIdFilter(where[field.name], `where.${field.name}`, takes, byType);
    if (field.kind === 'ref') {
      const condition = where[field.name];
      if (isJsonObject(condition)) refuseInIdFilter(condition.id, `where.${field.name}.id`, takes, byType);
    }
  }
}

/** The reference fields of a typed input (`input.customer`). */
function refuseInInput(
  input: unknown,
  spec: ObjectTypeSpec,
  takes: string,
  byType: ReadonlyMap<string, ObjectTypeSpec>,
): void {
  if (!isJsonObject(input)) return;
  for (const field of spec.fields) {
    if (field.kind !== 'ref') continue;
    refuseGlobalId(input[field.name], { shown: `input.${field.name}`, argument: 'input', takes }, byType);
  }
}

/** The resolver of `type.field` that `maps` end with (a later map replaces an earlier one's). */
function lastResolver(maps: readonly object[], type: string, field: string): Resolver {
  for (const map of [...maps].reverse()) {
    const resolver = (map as Record<string, Record<string, unknown> | undefined>)[type]?.[field];
    if (typeof resolver === 'function') return resolver as Resolver;
  }
  throw new Error(`no resolver ${type}.${field}`);
}

/**
 * Resolvers that check the upstream-id arguments, then call the ones `maps` end with; merge them after
 * every other map (`relayNodeResolvers`' included).
 */
export function upstreamIdArguments(
  specs: readonly ObjectTypeSpec[],
  maps: readonly object[],
): ExecutableResolvers {
  const byType = new Map(specs.map((spec) => [spec.typeName, spec]));
  const guarded = (type: string, field: string, check: (args: Args) => void): Resolver => {
    const next = lastResolver(maps, type, field);
    return (parent, args, ctx, info) => {
      check(args);
      return next(parent, args, ctx, info);
    };
  };
  const one = (value: unknown, argument: string, takes: string) => {
    refuseGlobalId(value, { shown: argument, argument, takes }, byType);
  };
  const query: Record<string, Resolver> = {
    object: guarded('Query', 'object', (args) => {
      one(args.id, 'id', 'object(objectName, id)');
      refuseInFilter(args.filter, 'object(objectName, filter)', byType);
    }),
    objects: guarded('Query', 'objects', (args) => {
      refuseInFilter(args.filter, 'objects(filter)', byType);
    }),
    metadata: guarded('Query', 'metadata', (args) => {
      one(args.objectId, 'objectId', 'metadata(objectId)');
    }),
  };
  const mutation: Record<string, Resolver> = {
    updateObject: guarded('Mutation', 'updateObject', (args) => {
      one(args.id, 'id', 'updateObject(id, objectName)');
    }),
    saveObject: guarded('Mutation', 'saveObject', (args) => {
      const data = isJsonObject(args.data) ? args.data : {};
      refuseGlobalId(data._id, { shown: 'data._id', argument: 'data', takes: 'saveObject(data)' }, byType);
    }),
  };
  for (const spec of specs) {
    const { names } = spec;
    query[names.plural] = guarded('Query', names.plural, (args) => {
      refuseInWhere(args.where, spec, byType);
    });
    mutation[names.save] = guarded('Mutation', names.save, (args) => {
      refuseInInput(args.input, spec, `${names.save}(input)`, byType);
    });
    mutation[names.update] = guarded('Mutation', names.update, (args) => {
      refuseInInput(args.input, spec, `${names.update}(input)`, byType);
    });
  }
  return { Query: query, Mutation: mutation } as ExecutableResolvers;
}
