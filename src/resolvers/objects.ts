/**
 * `object`, `objects`, `saveObject`, `updateObject` and the `DataObject` fields. Resolvers only translate:
 * arguments to loader or client calls, upstream records to schema models.
 */
import type { Resolvers } from '../generated/resolvers-types.ts';
import { badUserInput } from '../graphql/errors.ts';
import type { DataObjectModel } from './mappers.ts';
import { getPath } from './object-path.ts';
import { connectionNodes, connectionPageInfo, readConnection } from './read-connection.ts';
import { toCriteria } from './to-criteria.ts';

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
      const { loaders, credentials } = ctx.requireSession();
      const record = hasId
        ? await loaders.object(objectName, id)
        : await ctx.services.reads.getObject(credentials, objectName, await toCriteria(filter, ctx.services));
      return record === null ? null : { objectName, record };
    },

    async objects(_parent, args, ctx) {
      const objectName = requireObjectName(args.objectName);
      const { loaders } = ctx.requireSession();
      const criteria = await toCriteria(args.filter, ctx.services);
      return readConnection(loaders, objectName, criteria, args, ctx.services.config);
    },
  },

  Mutation: {
    async saveObject(_parent, { objectName, data }, ctx) {
      requireObjectName(objectName);
      const { loaders, credentials } = ctx.requireSession();
      const result = await ctx.services.upstream.save(
        credentials,
        objectName,
        requireWritableData(data, true),
      );
      loaders.clearObject(objectName, result.savedObjectId);
      return { id: result.savedObjectId, message: result.message, objectName };
    },

    async updateObject(_parent, { id, objectName, data }, ctx) {
      requireObjectName(objectName);
      const { loaders, credentials } = ctx.requireSession();
      const result = await ctx.services.upstream.update(
        credentials,
        objectName,
        id,
        requireWritableData(data, false),
      );
      loaders.clearObject(objectName, result.savedObjectId);
      return {
        id: result.savedObjectId,
        message: result.message,
        objectName,
        updatedFields: result.updatedFields,
      };
    },
  },

  DataObjectConnection: {
    nodes: connectionNodes,
    pageInfo: connectionPageInfo,
  },

  DataObject: {
    id: (object) => object.record._id,
    data: (object) => object.record,
    field: (object, { path }) => getPath(object.record, path) ?? null,
    async metadata(object, _args, ctx) {
      const data = await ctx.requireSession().loaders.metadata(object.record._id, 'none');
      return { objectId: object.record._id, category: 'none', data };
    },
    async ref(object, { path, objectName }, ctx): Promise<DataObjectModel | null> {
      const value = getPath(object.record, path);
      // An empty reference refers to nothing: it is the record's state, not the caller's mistake.
      if ((typeof value !== 'string' && typeof value !== 'number') || value === '') return null;
      const record = await ctx.requireSession().loaders.object(requireObjectName(objectName), String(value));
      return record === null ? null : { objectName, record };
    },
  },

  SavePayload: {
    async object(payload, _args, ctx) {
      const record = await ctx.requireSession().loaders.object(payload.objectName, payload.id);
      return record === null ? null : { objectName: payload.objectName, record };
    },
  },

  UpdatePayload: {
    async object(payload, _args, ctx) {
      const record = await ctx.requireSession().loaders.object(payload.objectName, payload.id);
      return record === null ? null : { objectName: payload.objectName, record };
    },
  },
};
