/**
 * `object`, `objects`, `saveObject`, `updateObject` and the `DataObject` fields. Resolvers only translate:
 * arguments to object service calls (`src/objects/`), upstream records to schema models.
 */
import type { Resolvers } from '../generated/resolvers-types.ts';
import { badUserInput } from '../errors/graphql-errors.ts';
import { findObject, readObject, readObjectMetadata, toModel } from '../objects/read-object.ts';
import { connectionNodes, connectionPageInfo, readPage } from '../objects/read-page.ts';
import { readBack, saveObject, updateObject } from '../objects/write-object.ts';
import type { DataObjectModel } from '../objects/mappers.ts';
import { getPath } from '../objects/object-path.ts';
import { filterServicesOf } from '../objects/compile-filter.ts';
import { toCriteria } from '../objects/to-criteria.ts';
import { referenceIdOf } from '../upstream/dialect/reference-id.ts';

function requireObjectName(objectName: string): string {
  if (objectName.trim() === '') throw badUserInput('"objectName" must not be empty.', 'objectName');
  return objectName;
}

function requireWritableData(data: Record<string, unknown>, allowId: boolean): Record<string, unknown> {
  if (!allowId && Object.hasOwn(data, '_id')) throw badUserInput('"data" cannot change "_id".', 'data');
  if (Object.keys(data).length === 0) throw badUserInput('"data" must name at least one field.', 'data');
  return data;
}

/** Resolvers of the generic object API. */
export const objectResolvers: Resolvers = {
  Query: {
    async object(_parent, { objectName, id, filter }, ctx) {
      requireObjectName(objectName);
      const hasId = id !== null && id !== undefined;
      const hasFilter = filter !== null && filter !== undefined;
      if (hasId === hasFilter) throw badUserInput('Pass exactly one of "id" and "filter".');
      const auth = ctx.requireSession();
      const record = hasId
        ? await readObject(auth, objectName, id)
        : await findObject(auth, objectName, await toCriteria(filter, filterServicesOf(ctx), objectName));
      return toModel(objectName, record);
    },

    async objects(_parent, args, ctx) {
      const objectName = requireObjectName(args.objectName);
      const auth = ctx.requireSession();
      // No condition compiles to no criterion: the usual page skips the compiler and its services.
      const criteria =
        (args.filter?.criteria.length ?? 0) === 0
          ? []
          : await toCriteria(args.filter, filterServicesOf(ctx), objectName);
      return readPage(auth, objectName, criteria, args, ctx.services.config);
    },
  },

  Mutation: {
    async saveObject(_parent, { objectName, data }, ctx) {
      requireObjectName(objectName);
      // The session is checked before the data: an anonymous caller hears UNAUTHENTICATED first.
      const auth = ctx.requireSession();
      return saveObject(auth, objectName, requireWritableData(data, true));
    },

    async updateObject(_parent, { id, objectName, data }, ctx) {
      requireObjectName(objectName);
      const auth = ctx.requireSession();
      return updateObject(auth, objectName, id, requireWritableData(data, false));
    },
  },

  DataObjectConnection: {
    nodes: connectionNodes,
    pageInfo: connectionPageInfo,
  },

  DataObject: {
    id: (object) => object.record._id,
    // The record's values are what makes an answer large: each is counted as it is returned (the answer's
    // bound, `src/limits/answer-size/answer-meter.ts`).
    data: (object, _args, ctx) => {
      ctx.answerMeter?.chargeRecord(object.objectName, object.record);
      return object.record;
    },
    field: (object, { path }, ctx) => {
      const value = getPath(object.record, path) ?? null;
      ctx.answerMeter?.charge(value);
      return value;
    },
    metadata: (object, _args, ctx) => readObjectMetadata(ctx.requireSession(), object),
    async ref(object, { path, objectName }, ctx): Promise<DataObjectModel | null> {
      // Text, a whole number or `{"$oid": …}`; anything else (empty included) refers to nothing: it is the
      // record's state, not the caller's mistake.
      const id = referenceIdOf(getPath(object.record, path));
      if (id === undefined) return null;
      return toModel(objectName, await readObject(ctx.requireSession(), requireObjectName(objectName), id));
    },
  },

  SavePayload: {
    object: (payload, _args, ctx) => readBack(ctx.requireSession(), payload),
  },

  UpdatePayload: {
    object: (payload, _args, ctx) => readBack(ctx.requireSession(), payload),
  },
};
