/**
 * The resolvers of the typed API, built from the specs at start-up. They only translate: arguments to the
 * same object service the generic API uses (`src/objects/`), records to checked values.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { IExecutableSchemaDefinition } from '@graphql-tools/schema';
import type { GraphQLContext } from '../graphql/context.ts';
import type { DataObjectConnectionModel, DataObjectModel, SavePayloadModel } from '../objects/mappers.ts';
import { filterServicesOf } from '../objects/compile-filter.ts';
import { getPathAt, pathKeys } from '../objects/object-path.ts';
import type { PageArgs } from '../objects/paging.ts';
import { readObject, readObjectMetadata, toModel } from '../objects/read-object.ts';
import { connectionNodes, connectionPageInfo, readPage } from '../objects/read-page.ts';
import { readBack, saveObject, updateObject } from '../objects/write-object.ts';
import type { UpstreamRecord } from '../upstream/client/types.ts';
import { isJsonObject } from '../upstream/client/answers/response-schemas.ts';
import { badUpstreamValue } from '../errors/bad-upstream-value.ts';
import { notFound } from '../errors/graphql-errors.ts';
import {
  DATA_OBJECT_FIELD,
  hasDerivedDataObject,
  hasDerivedMetadata,
  METADATA_FIELD,
  TYPED_OBJECT_UNION,
} from './build-type-defs.ts';
import { withIndefiniteArticle } from '../errors/indefinite-article.ts';
import { checkValue, describeValue } from './check-value.ts';
import { LongScalar } from './long-scalar.ts';
import { checkPatch, inputToRecord, patchNeedsCurrent, patchToFields } from './input-to-record.ts';
import { printTypeRef, type FieldSpec, type ObjectTypeSpec } from './spec/object-type-spec.ts';
import { whereToCriteria } from './where-to-criteria.ts';
import { referenceIdOf } from '../upstream/dialect/reference-id.ts';

/** One resolver map of those `makeExecutableSchema` takes. */
export type ExecutableResolvers = Extract<
  NonNullable<IExecutableSchemaDefinition<GraphQLContext>['resolvers']>,
  readonly unknown[]
>[number];

type Args = Record<string, unknown>;
type Resolver<Parent> = GraphQLFieldResolver<Parent, GraphQLContext, Args>;

const intOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function pageArgs(args: Args): PageArgs {
  return {
    first: intOrNull(args.first),
    after: stringOrNull(args.after),
    last: intOrNull(args.last),
    before: stringOrNull(args.before),
  };
}

function fieldResolver(
  spec: ObjectTypeSpec,
  field: FieldSpec,
  byType: Map<string, ObjectTypeSpec>,
): Resolver<DataObjectModel> {
  if (field.kind === 'id') return (object) => object.record._id;
  const bad = (object: DataObjectModel, expected: string, received: string) =>
    badUpstreamValue({
      typeName: spec.typeName,
      field: field.name,
      objectId: object.record._id,
      recordPath: field.path,
      expected,
      received,
    });
  // Split once here, not on every record's every field.
  const keys = pathKeys(field.path);
  if (field.kind === 'value') {
    return (object, _args, ctx) => {
      const checked = checkValue(getPathAt(object.record, keys), field.type);
      if (checked.ok) {
        // Counted against the answer's bound as it is returned (`src/limits/answer-size/answer-meter.ts`).
        ctx.answerMeter?.charge(checked.value);
        return checked.value;
      }
      throw bad(object, printTypeRef(field.type), checked.received);
    };
  }
  const target = byType.get(field.target);
  if (target === undefined) throw new Error(`@ref target ${field.target} has no spec`);
  return async (object, _args, ctx) => {
    const value = getPathAt(object.record, keys);
    if (value === null || value === undefined || value === '') return null;
    // Text, a whole number or MongoDB's `{"$oid": …}`; anything else is named, never taken for no reference.
    const id = referenceIdOf(value);
    if (id === undefined) {
      throw bad(object, `the id of ${withIndefiniteArticle(target.typeName)}`, describeValue(value));
    }
    return toModel(target.objectName, await readObject(ctx.requireSession(), target.objectName, id));
  };
}

function rootResolvers(spec: ObjectTypeSpec): {
  query: [string, Resolver<unknown>][];
  mutation: [string, Resolver<unknown>][];
} {
  const { objectName, names, typeName } = spec;
  const single: Resolver<unknown> = async (_parent, args, ctx) =>
    toModel(objectName, await readObject(ctx.requireSession(), objectName, String(args.id)));
  const plural: Resolver<unknown> = async (_parent, args, ctx) => {
    const auth = ctx.requireSession();
    const criteria = await whereToCriteria(args.where, spec, filterServicesOf(ctx));
    return readPage(auth, objectName, criteria, pageArgs(args), ctx.services.config);
  };
  const save: Resolver<unknown> = async (_parent, args, ctx): Promise<SavePayloadModel> => {
    // The input is checked before the session: a typed mistake is reported first.
    const record = inputToRecord(isJsonObject(args.input) ? args.input : {}, spec);
    return saveObject(ctx.requireSession(), objectName, record);
  };
  const update: Resolver<unknown> = async (_parent, args, ctx) => {
    const id = String(args.id);
    const patch = isJsonObject(args.input) ? args.input : {};
    checkPatch(patch, spec);
    const auth = ctx.requireSession();
    let current: UpstreamRecord | null = null;
    if (patchNeedsCurrent(patch, spec)) {
      current = await readObject(auth, objectName, id);
      if (current === null) {
        throw notFound(`No ${typeName} with id "${id}".`);
      }
    }
    return updateObject(auth, objectName, id, patchToFields(patch, spec, current));
  };
  return {
    query: [
      [names.single, single],
      [names.plural, plural],
    ],
    mutation: [
      [names.save, save],
      [names.update, update],
    ],
  };
}

/** The derived `metadata` field: the same per-object read as `DataObject.metadata`. */
const metadataResolver: Resolver<DataObjectModel> = (object, _args, ctx) =>
  readObjectMetadata(ctx.requireSession(), object);

const payloadObject: Resolver<SavePayloadModel> = (payload, _args, ctx) =>
  readBack(ctx.requireSession(), payload);

/** A typed object and its `DataObject` are the same model: one record of one object name. */
const sameRecord: Resolver<DataObjectModel> = (object) => object;

/** The resolvers of every typed type, connection and payload, and of their query and mutation fields. */
export function buildTypedResolvers(specs: readonly ObjectTypeSpec[]): ExecutableResolvers {
  const byType = new Map(specs.map((spec) => [spec.typeName, spec]));
  const byObjectName = new Map(specs.map((spec) => [spec.objectName, spec.typeName]));
  const query: [string, Resolver<unknown>][] = [];
  const mutation: [string, Resolver<unknown>][] = [];
  const types: Record<string, Record<string, Resolver<never>>> = {};
  const connection: Record<string, Resolver<DataObjectConnectionModel>> = {
    nodes: connectionNodes,
    pageInfo: connectionPageInfo,
  };
  for (const spec of specs) {
    const roots = rootResolvers(spec);
    query.push(...roots.query);
    mutation.push(...roots.mutation);
    types[spec.typeName] = Object.fromEntries([
      ...spec.fields.map((f) => [f.name, fieldResolver(spec, f, byType)] as const),
      ...(hasDerivedMetadata(spec) ? [[METADATA_FIELD, metadataResolver] as const] : []),
      ...(hasDerivedDataObject(spec) ? [[DATA_OBJECT_FIELD, sameRecord] as const] : []),
    ]);
    types[spec.names.connection] = connection;
    types[spec.names.savePayload] = { object: payloadObject };
    types[spec.names.updatePayload] = { object: payloadObject };
  }
  const typedOf: Resolver<DataObjectModel> = (object) =>
    byObjectName.has(object.objectName) ? object : null;
  return {
    ...types,
    ...(specs.length === 0
      ? {}
      : {
          DataObject: { typed: typedOf },
          [TYPED_OBJECT_UNION]: {
            __resolveType: (object: DataObjectModel) => byObjectName.get(object.objectName) ?? null,
          },
        }),
    Long: LongScalar,
    Query: Object.fromEntries(query),
    Mutation: Object.fromEntries(mutation),
  };
}
