/**
 * Reading a page of objects, for the generic and the typed API alike: one Relay connection page read
 * through the request's loaders, the window the arguments ask for served from the fewest upstream pages
 * (`paging.ts`), then sliced. Shared by the generic `objects` field and every typed page field, so both
 * page the same way and share the per-request page cache.
 */
import type { PageInfo } from '../generated/resolvers-types.ts';
import type { AuthenticatedContext } from '../graphql/context.ts';
import type { Criterion, UpstreamRecord } from '../upstream/client/types.ts';
import type { DataObjectConnectionModel, DataObjectEdgeModel, DataObjectModel } from './mappers.ts';
import {
  encodeCursor,
  parsePageArgs,
  planPages,
  readRange,
  resolveBackward,
  verifyCursors,
  type PageArgs,
} from './paging.ts';

/**
 * An edge that is its own node: one object per record of a page, not an edge and a node. Its cursor is
 * encoded only when it is read: a query for `nodes` (the usual page) never asks, and encoding one per
 * record was a third of a 50-record page's resolver time.
 */
class PageEntry implements DataObjectEdgeModel, DataObjectModel {
  readonly objectName: string;
  readonly record: UpstreamRecord;
  readonly #offset: number;

  constructor(offset: number, objectName: string, record: UpstreamRecord) {
    this.#offset = offset;
    this.objectName = objectName;
    this.record = record;
  }

  get node(): DataObjectModel {
    return this;
  }

  get cursor(): string {
    return encodeCursor(this.#offset, this.record._id);
  }
}

/** The page size limits (`GatewayConfig` carries them). */
export interface PageLimits {
  defaultPageSize: number;
  maxPageSize: number;
  /** The largest page one upstream call asks for (`UPSTREAM_MAX_PAGE_SIZE`): larger windows are split. */
  upstreamMaxPageSize: number;
}

/** Reads the page of `objectName` records matching `criteria` that the Relay arguments ask for. */
export async function readPage(
  auth: AuthenticatedContext,
  objectName: string,
  criteria: Criterion[],
  args: PageArgs,
  limits: PageLimits,
): Promise<DataObjectConnectionModel> {
  const request = parsePageArgs(args, limits);
  let window: { offset: number; limit: number };
  if (request.direction === 'forward') {
    window = request;
  } else if (request.end === null) {
    // `last` without `before` counts back from the total, which only a read tells.
    const size = Math.max(1, Math.min(request.limit, limits.upstreamMaxPageSize));
    const probe = await auth.loaders.page(objectName, criteria, size, 0);
    window = resolveBackward(request, probe.totalCount);
  } else {
    window = resolveBackward(request, Number.MAX_SAFE_INTEGER);
  }
  const range = readRange(request, window);
  const plan = planPages(range.offset, range.limit, limits.upstreamMaxPageSize);
  const pages = await Promise.all(
    plan.map((p) => auth.loaders.page(objectName, criteria, p.pageSize, p.pageIndex)),
  );
  const totalCount = pages[0]?.totalCount ?? 0;
  const edges: DataObjectEdgeModel[] = [];
  plan.forEach((p, i) => {
    const records = pages[i]?.records ?? [];
    records.forEach((record, j) => {
      const at = p.pageIndex * p.pageSize + j;
      if (at >= window.offset && at < window.offset + window.limit) {
        edges.push(new PageEntry(at, objectName, record));
      }
    });
  });
  if (range.checks.length > 0) {
    verifyCursors(range, (offset) => {
      const i = plan.findIndex((p) => Math.floor(offset / p.pageSize) === p.pageIndex);
      const p = plan[i];
      return p === undefined ? undefined : pages[i]?.records[offset - p.pageIndex * p.pageSize];
    });
  }
  return {
    totalCount,
    edges,
    hasNextPage: window.offset + edges.length < totalCount,
    hasPreviousPage: window.offset > 0 && totalCount > 0,
  };
}

/** The `nodes` of a connection. */
export function connectionNodes(connection: DataObjectConnectionModel): DataObjectModel[] {
  return connection.edges.map((edge) => edge.node);
}

/** The `pageInfo` of a connection. */
export function connectionPageInfo(connection: DataObjectConnectionModel): PageInfo {
  return {
    hasNextPage: connection.hasNextPage,
    hasPreviousPage: connection.hasPreviousPage,
    startCursor: connection.edges[0]?.cursor ?? null,
    endCursor: connection.edges.at(-1)?.cursor ?? null,
  };
}
