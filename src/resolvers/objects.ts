/**
 * `object`, `objects`, `saveObject`, `updateObject` and the `DataObject` fields. Resolvers only translate:
 * arguments to loader or client calls, upstream records to schema models.
 */
import type { InputMaybe, FilterInput, Resolvers } from '../generated/resolvers-types.ts';
import type { Criterion } from '../upstream/types.ts';
import { badUserInput } from './errors.ts';
import type { DataObjectEdgeModel, DataObjectModel } from './mappers.ts';
import { getPath } from './object-path.ts';
import { encodeCursor, parsePageArgs, planPages, resolveBackward } from './paging.ts';

/** The upstream criteria of a `FilterInput`. */
export function toCriteria(filter: InputMaybe<FilterInput>): Criterion[] {
  return (filter?.criteria ?? []).map((c) => ({
    fieldName: c.fieldName,
    operator: c.operator ?? 'matches',
    value: c.value,
  }));
}

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
      const { loaders, credentials } = ctx.auth();
      const record = hasId
        ? await loaders.object(objectName, id)
        : await ctx.services.reads.getObject(credentials, objectName, toCriteria(filter));
      return record === null ? null : { objectName, record };
    },

    async objects(_parent, args, ctx) {
      const objectName = requireObjectName(args.objectName);
      const { loaders } = ctx.auth();
      const criteria = toCriteria(args.filter);
      const { config } = ctx.services;
      const request = parsePageArgs(args, config);
      let window: { offset: number; limit: number };
      if (request.direction === 'forward') {
        window = request;
      } else if (request.end === null) {
        // `last` without `before` counts back from the total, which only a read tells.
        const probe = await loaders.page(objectName, criteria, Math.max(1, request.limit), 0);
        window = resolveBackward(request, probe.totalCount);
      } else {
        window = resolveBackward(request, Number.MAX_SAFE_INTEGER);
      }
      const plan = planPages(window.offset, window.limit);
      const pages = await Promise.all(
        plan.map((p) => loaders.page(objectName, criteria, p.pageSize, p.pageIndex)),
      );
      const totalCount = pages[0]?.totalCount ?? 0;
      const edges: DataObjectEdgeModel[] = [];
      plan.forEach((p, i) => {
        const records = pages[i]?.records ?? [];
        records.forEach((record, j) => {
          const at = p.pageIndex * p.pageSize + j;
          if (at >= window.offset && at < window.offset + window.limit) {
            edges.push({ cursor: encodeCursor(at), node: { objectName, record } });
          }
        });
      });
      return {
        totalCount,
        edges,
        hasNextPage: window.offset + edges.length < totalCount,
        hasPreviousPage: window.offset > 0 && totalCount > 0,
      };
    },
  },

  Mutation: {
    async saveObject(_parent, { objectName, data }, ctx) {
      requireObjectName(objectName);
      const { loaders, credentials } = ctx.auth();
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
      const { loaders, credentials } = ctx.auth();
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
    nodes: (connection) => connection.edges.map((edge) => edge.node),
    pageInfo: (connection) => ({
      hasNextPage: connection.hasNextPage,
      hasPreviousPage: connection.hasPreviousPage,
      startCursor: connection.edges[0]?.cursor ?? null,
      endCursor: connection.edges.at(-1)?.cursor ?? null,
    }),
  },

  DataObject: {
    id: (object) => object.record._id,
    data: (object) => object.record,
    field: (object, { path }) => getPath(object.record, path) ?? null,
    async metadata(object, _args, ctx) {
      const data = await ctx.auth().loaders.metadata(object.record._id, 'none');
      return { objectId: object.record._id, category: 'none', data };
    },
    async ref(object, { path, objectName }, ctx): Promise<DataObjectModel | null> {
      const value = getPath(object.record, path);
      if (typeof value !== 'string' && typeof value !== 'number') return null;
      const record = await ctx.auth().loaders.object(requireObjectName(objectName), String(value));
      return record === null ? null : { objectName, record };
    },
  },

  SavePayload: {
    async object(payload, _args, ctx) {
      const record = await ctx.auth().loaders.object(payload.objectName, payload.id);
      return record === null ? null : { objectName: payload.objectName, record };
    },
  },

  UpdatePayload: {
    async object(payload, _args, ctx) {
      const record = await ctx.auth().loaders.object(payload.objectName, payload.id);
      return record === null ? null : { objectName: payload.objectName, record };
    },
  },
};
