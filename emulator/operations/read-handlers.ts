import { authenticateQuery } from './caller.ts';
import type { EmulatorContext, OperationRequest } from '../emulator-context.ts';
import { matchesFilter, parseFilterCommand, type Filter } from './filter-command.ts';
import type { ObjectStore, StoredObject } from '../store/object-store.ts';
import { parsePaging, type TotalCountForm } from './paging.ts';
import { badCallbackReply, isCallbackName, serviceError, type Reply } from '../http/reply.ts';
import { jsonText } from '../http/json-text.ts';
import { checkTypedQueryCall, type TypedQueryCall } from './typed-query-call.ts';
import { deadSessionReply, withOrganizationField } from './read-quirks.ts';

const nonEmpty = (value: string | null): string | undefined =>
  value === null || value === '' ? undefined : value;

/** The validated parts of a getObject or getAll call. */
interface ReadCall extends TypedQueryCall {
  filter: Filter;
}

/** Callback, then credentials, then object name, then filter: each failure answered in the callback. */
function prepareRead(context: EmulatorContext, request: OperationRequest): ReadCall | Reply {
  const { query } = request;
  const quirks = context.readQuirks;
  const dead = quirks.deadSession ?? 'error';
  if (dead !== 'error' && isCallbackName(query.get('callback'))) {
    // A servlet filter in front of the service: a dead session never reaches it, whatever else is wrong.
    const caller = authenticateQuery(context, request, true);
    if (!caller.ok && DEAD_SESSION.test(caller.message)) return deadSessionReply(dead);
  }
  const call = checkTypedQueryCall(context, request, true);
  if ('statusCode' in call) return call;
  const filter = parseFilterCommand(
    query.get('filterCommand'),
    {
      mode: context.matches,
      caseInsensitive: context.matchesCase === 'insensitive',
      wrapAnchors: quirks.wrapAnchors,
      lastPerField: quirks.lastCriterionPerField,
      stringsOnly: quirks.matchesStringsOnly,
    },
    context.patterns,
  );
  if (typeof filter === 'string') return serviceError(filter, call.callback);
  if (quirks.ignoreOrganization === true) {
    // Every organization of the application: the service filters by application only.
    const scope = {
      applicationCode: call.scope.applicationCode,
      organizationCodes: context.store.organizationsOf(call.scope.applicationCode),
    };
    return { ...call, scope, filter };
  }
  return { ...call, filter };
}

/** The caller messages that say the token or the session is dead (not a missing field, not another organization). */
const DEAD_SESSION = /^(?:invalid|expired) (?:token|session)|^(?:token|session) expired/;

/** The objects a filter can match, in insertion order: looked up by id when the filter pins `_id`. */
function candidates(store: ObjectStore, call: ReadCall): readonly StoredObject[] {
  const ids = call.filter.idCandidates;
  if (ids === undefined) return store.list(call.objectName, call.scope);
  const found = new Set<StoredObject>();
  for (const id of ids) {
    const object = store.get(id, call.scope);
    if (object?.objectName === call.objectName) found.add(object);
  }
  return [...found].sort((a, b) => a.seq - b.seq);
}

/** Matching objects in `[offset, offset + limit)` and how many match in all. */
function findPage(store: ObjectStore, call: ReadCall, offset: number, limit: number) {
  const pool = candidates(store, call);
  if (call.filter.criteria.length === 0)
    return { page: pool.slice(offset, offset + limit), totalCount: pool.length };
  const page: StoredObject[] = [];
  let totalCount = 0;
  for (const object of pool) {
    if (!matchesFilter(object.record, call.filter)) continue;
    if (totalCount >= offset && page.length < limit) page.push(object);
    totalCount++;
  }
  return { page, totalCount };
}

/** The `totalCount` member as `form` writes it (with its leading comma), or nothing. */
function totalCountMember(totalCount: number, form: TotalCountForm): string {
  if (form === 'string') return `,"totalCount":"${totalCount}"`;
  if (form === 'omit-when-empty' && totalCount === 0) return '';
  return `,"totalCount":${totalCount}`;
}

/** The read response, assembled from each record's cached JSON text. */
function readReply(
  context: EmulatorContext,
  callback: string,
  page: readonly StoredObject[],
  totalCount: number,
): Reply {
  const tenantField = context.readQuirks.ignoreOrganization === true;
  const data = page
    .map((object) => {
      const json = context.store.recordJson(object);
      return tenantField ? withOrganizationField(json, object.organizationCode) : json;
    })
    .join(',');
  return {
    statusCode: 200,
    json: `{"status":"success","data":[${data}]${totalCountMember(totalCount, context.totalCount)}}`,
    callback,
  };
}

/** `GET /studio/jsonp/getAll`: a page of the matching objects and their total count. */
export function handleGetAll(context: EmulatorContext, request: OperationRequest): Reply {
  const call = prepareRead(context, request);
  if (!('filter' in call)) return call;
  const window = parsePaging(
    request.query.get('pageSize'),
    request.query.get('pageStart'),
    context.pageStart,
    context.maxPageSize,
    context.pageZero,
  );
  if (typeof window === 'string') return serviceError(window, call.callback);
  const { page, totalCount } = findPage(context.store, call, window.offset, window.limit);
  return readReply(context, call.callback, page, totalCount);
}

/** `GET /studio/jsonp/getObject/`: the read shape with the first matching object, or none. */
export function handleGetObject(context: EmulatorContext, request: OperationRequest): Reply {
  const call = prepareRead(context, request);
  if (!('filter' in call)) return call;
  const first = candidates(context.store, call).find((object) => matchesFilter(object.record, call.filter));
  if (context.readQuirks.getObjectSingle === true) {
    // A controller returning the entity itself: `data` is the record, or null.
    const record =
      first === undefined
        ? 'null'
        : context.readQuirks.ignoreOrganization === true
          ? withOrganizationField(context.store.recordJson(first), first.organizationCode)
          : context.store.recordJson(first);
    return { statusCode: 200, json: `{"status":"success","data":${record}}`, callback: call.callback };
  }
  return readReply(context, call.callback, first === undefined ? [] : [first], first === undefined ? 0 : 1);
}

/** `GET /studio/jsonp/metadata/get/{objectId}/`: bookkeeping of one object of the caller's tenant. */
export function handleMetadata(context: EmulatorContext, request: OperationRequest): Reply {
  const { query } = request;
  const callback = query.get('callback');
  if (!isCallbackName(callback)) return badCallbackReply();
  const caller = authenticateQuery(context, request, true);
  if (!caller.ok) return serviceError(caller.message, callback);
  const object = request.pathId === undefined ? undefined : context.store.get(request.pathId, caller.scope);
  if (object === undefined) return serviceError('object not found', callback);
  const data = {
    objectId: object.id,
    objectName: object.objectName,
    category: nonEmpty(query.get('category')) ?? 'none',
    createdAt: object.createdAt,
    updatedAt: object.updatedAt,
    createdBy: object.createdBy,
    version: object.version,
  };
  // `EMULATOR_METADATA_KEY`: some upstreams answer the payload under another key (`metadata`).
  return { statusCode: 200, json: jsonText({ status: 'success', [context.metadataKey]: data }), callback };
}
