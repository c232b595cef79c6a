/**
 * A static estimate of the upstream calls one operation makes, from its document and variables, before any
 * resolver runs. It models the gateway's loaders (`src/upstream/batching/loaders.ts`), not an abstract cost: a page
 * field reads its upstream pages (`planPages`), objects read by id cost one call per batch of them, metadata
 * one call per object, a login one call, a save or update two (the write and its read-back), a save naming
 * an `_id` three (it reads the object before). It errs on the high side: it never counts a call the loaders or
 * the coalescing would share.
 *
 * The walk (`fold-merged-fields.ts`) counts the fields the operation fetches, merged as execution merges
 * them: the same `customer` reached through several fragments is one field, read once by its loader; two
 * aliases of it are two. It sums one number per field. Batching does not fit one number: a `ref` under a
 * page of 100 objects is one call, not 100. So the walk runs twice, each pass linear in the number of
 * objects above a field:
 * - `perObject` counts the calls made once per object of the level above (metadata, the pages themselves);
 * - `perBatch` counts the calls made once per batch of up to `idsPerCall` objects (the id loader).
 * A page field multiplies the first by its objects and the second by its batches. At the root there is
 * one object, so the operation's estimate is the sum of both passes. (Page fields are root query fields
 * only; one nested under a list would need its batches counted per object of that list.)
 */
import { Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import {
  mostPagesFor,
  parsePageArgs,
  planPages,
  readRange,
  resolveBackward,
  type PageArgs,
  type PageRequest,
} from '../objects/paging.ts';
import type { PageLimits } from '../objects/read-page.ts';
import type { UpstreamCallKinds } from './upstream-call-kinds.ts';
import { foldMergedFields, TooLargeToFold, type MergedField } from './fold-merged-fields.ts';
import { operationValues, VariablesDoNotFit, type OperationValues } from './operation-values.ts';

/** What {@link estimateUpstreamCalls} needs. */
export interface UpstreamCallEstimateOptions {
  schema: GraphQLSchema;
  /** The schema's classification (`upstreamCallKinds`). */
  kinds: UpstreamCallKinds;
  document: DocumentNode;
  /** The operation to estimate; may be left out when the document has one. */
  operationName?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  /** `DEFAULT_PAGE_SIZE`, `MAX_PAGE_SIZE` and `UPSTREAM_MAX_PAGE_SIZE` (pages past it are split into calls). */
  pageLimits: PageLimits;
  /** Ids one id-loader call reads (`idsPerBatch`): up to 100 when the upstream's `matches` is a regex, 1 in `exact` mode. */
  idsPerCall: number;
}

/** The upstream calls of one page field and the objects it answers. */
export interface PageCost {
  calls: number;
  objects: number;
}

const intOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Follows `readPage` (`src/objects/read-page.ts`): the window the arguments ask for, and the upstream pages that serve it. */
export function pageCost(args: Record<string, unknown>, limits: PageLimits): PageCost {
  const pageArgs: PageArgs = {
    first: intOrNull(args.first),
    after: stringOrNull(args.after),
    last: intOrNull(args.last),
    before: stringOrNull(args.before),
  };
  let request: PageRequest;
  try {
    request = parsePageArgs(pageArgs, limits);
  } catch {
    // The resolver refuses these arguments (BAD_USER_INPUT) before it calls the upstream.
    return { calls: 0, objects: 0 };
  }
  const cap = limits.upstreamMaxPageSize;
  const calls = (window: { offset: number; limit: number }): number => {
    const range = readRange(request, window);
    return planPages(range.offset, range.limit, cap).length;
  };
  if (request.direction === 'forward') return { calls: calls(request), objects: request.limit };
  if (request.end === null) {
    // `last` without `before`: one read for the total, then a window placed only by it (and the record
    // of an `after` cursor it may touch).
    const checked = request.after !== null && request.after.tag !== null ? 1 : 0;
    return { calls: 1 + mostPagesFor(request.limit + checked, cap), objects: request.limit };
  }
  const window = resolveBackward(request, Number.MAX_SAFE_INTEGER);
  return { calls: calls(window), objects: window.limit };
}

type Pass = 'perObject' | 'perBatch';

function estimator(
  options: UpstreamCallEstimateOptions,
  values: OperationValues,
  pass: Pass,
): (field: MergedField) => number {
  return ({ parentType, field, fieldNodes, childValue }) => {
    const below = childValue;
    switch (options.kinds.get(`${parentType.name}.${field?.name ?? ''}`)) {
      case undefined:
        return below();
      case 'write':
      case 'perObject':
        return pass === 'perObject' ? 1 + below() : below();
      case 'verifiedWrite':
        if (pass !== 'perObject') return below();
        return (savesById(field, fieldNodes[0], values) ? 3 : 2) + below();
      case 'byId':
        return pass === 'perBatch' ? 1 + below() : below();
      case 'page': {
        const node = fieldNodes[0];
        if (field === undefined || node === undefined) return below();
        const args = Object.fromEntries(
          PAGE_ARGUMENTS.map((name) => [name, values.argument(field, node, name)]),
        );
        const page = pageCost(args, options.pageLimits);
        return pass === 'perObject'
          ? page.calls + page.objects * below()
          : Math.ceil(page.objects / options.idsPerCall) * below();
      }
    }
  };
}

/** Whether a write's `data` names an `_id` (a save by id reads the object first), written inline or in a variable. */
function savesById(
  field: MergedField['field'],
  node: MergedField['fieldNodes'][number] | undefined,
  values: OperationValues,
): boolean {
  if (field === undefined || node === undefined) return false;
  const written = node.arguments?.find((argument) => argument.name.value === 'data')?.value;
  if (written?.kind === Kind.OBJECT) return written.fields.some((entry) => entry.name.value === '_id');
  const data = values.argument(field, node, 'data');
  return typeof data === 'object' && data !== null && Object.hasOwn(data, '_id');
}

/** The arguments that place a page. */
const PAGE_ARGUMENTS = ['first', 'after', 'last', 'before'] as const;

/**
 * Selections one pass may visit. Fields are merged as execution merges them, so a fragment spread many
 * times is walked once per place; a document whose distinct places still pass this is refused.
 */
const MAX_VISITS = 10_000;

/**
 * The estimated upstream calls of the operation; `undefined` when the variables do not fit the operation
 * (execution refuses them before any resolver runs), `Infinity` when the operation is too large to walk.
 */
export function estimateUpstreamCalls(options: UpstreamCallEstimateOptions): number | undefined {
  const { schema, document, operationName, variables } = options;
  const operation = document.definitions.find(
    (d) =>
      d.kind === Kind.OPERATION_DEFINITION &&
      (operationName === undefined || d.name?.value === operationName),
  );
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return undefined;
  try {
    const values = operationValues(operation, variables);
    const run = (pass: Pass): number =>
      foldMergedFields({
        schema,
        document,
        operation,
        include: values.include,
        fieldValue: estimator(options, values, pass),
        maxVisits: MAX_VISITS,
      });
    return run('perObject') + run('perBatch');
  } catch (error) {
    if (error instanceof TooLargeToFold) return Infinity;
    if (error instanceof VariablesDoNotFit) return undefined;
    throw error;
  }
}
