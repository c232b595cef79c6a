import { authenticateToken } from './caller.ts';
import { checkTypedQueryCall } from './typed-query-call.ts';
import type { EmulatorContext, OperationRequest } from '../emulator-context.ts';
import { jsonText } from '../http/json-text.ts';
import { parseJavaJson } from '../store/parse-java-json.ts';
import { badCallbackReply, isCallbackName, serviceError, type Reply } from '../http/reply.ts';
import type { UpstreamRecord } from '../../src/upstream/client/wire.ts';
import { asEntityStores, fieldsFromParams, saveSuccess } from './write-dialect.ts';

/** The save operation's error codes: 401 is documented (bad token or missing fields), the rest are ours. */
const SAVE_ERR = {
  unauthorized: 'SAVE_ERR_401',
  badRequest: 'SAVE_ERR_400',
  forbidden: 'SAVE_ERR_403',
  tooLarge: 'SAVE_ERR_413',
  storage: 'SAVE_ERR_500',
} as const;

const REQUIRED_SAVE_FIELDS = [
  'objectName',
  'data',
  'apiToken',
  'applicationCode',
  'organizationCode',
] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const parseJson = (text: string): { value: unknown } | undefined => {
  try {
    return { value: parseJavaJson(text) };
  } catch {
    return undefined;
  }
};

/** The callback of a save: the query's, or (when the query has none) the body's field of the same name. */
function saveCallback(query: URLSearchParams, body: unknown): string | undefined {
  const fromQuery = query.get('callback');
  if (fromQuery !== null) return isCallbackName(fromQuery) ? fromQuery : undefined;
  const fromBody = isPlainObject(body) ? body.callback : undefined;
  return isCallbackName(fromBody) ? fromBody : undefined;
}

/**
 * `POST /studio/jsonp/save?callback=…`: JSON body `{objectName, data, apiToken, applicationCode,
 * organizationCode, callback}`. `data._id` naming an object of that type in the tenant updates it (fields
 * merged, or replaced with `saveWithId: 'replaces'`); anything else creates an object with a new id. Answers
 * once the change is durable, the id where `saveIdAt` says.
 */
export async function handleSave(context: EmulatorContext, request: OperationRequest): Promise<Reply> {
  const parsed = request.body === undefined ? undefined : parseJson(request.body);
  const callback = saveCallback(request.query, parsed?.value);
  if (callback === undefined) return badCallbackReply();
  const fail = (message: string, code: string): Reply => serviceError(message, callback, code);
  if (request.body === undefined) return fail('request body larger than 1 MB', SAVE_ERR.tooLarge);
  if (parsed === undefined) return fail('malformed JSON body', SAVE_ERR.badRequest);
  const body = parsed.value;
  if (!isPlainObject(body)) return fail('the body must be a JSON object', SAVE_ERR.badRequest);
  // A servlet session stands for the token: a save that presents one may leave `apiToken` out.
  const session = request.sessionId;
  const absent = REQUIRED_SAVE_FIELDS.filter(
    (name) =>
      (name !== 'apiToken' || session === undefined) &&
      (body[name] === undefined || body[name] === null || body[name] === ''),
  );
  if (absent.length > 0) return fail(`missing fields: ${absent.join(', ')}`, SAVE_ERR.unauthorized);
  const { objectName, data, apiToken, applicationCode, organizationCode } = body;
  if (
    typeof objectName !== 'string' ||
    (typeof apiToken !== 'string' && session === undefined) ||
    typeof applicationCode !== 'string' ||
    typeof organizationCode !== 'string'
  ) {
    return fail(
      'objectName, apiToken, applicationCode and organizationCode must be strings',
      SAVE_ERR.badRequest,
    );
  }
  if (!isPlainObject(data)) return fail('data must be a JSON object', SAVE_ERR.badRequest);
  const caller = authenticateToken(context, {
    apiToken: typeof apiToken === 'string' ? apiToken : undefined,
    sessionId: request.sessionId,
    applicationCode,
    organizationCode,
  });
  if (!caller.ok) {
    return fail(
      caller.message,
      caller.message.startsWith('organization') ? SAVE_ERR.forbidden : SAVE_ERR.unauthorized,
    );
  }
  if (!context.store.isKnownType(objectName)) return fail('unknown object name', SAVE_ERR.badRequest);
  if (data._id !== undefined && typeof data._id !== 'string')
    return fail('data._id must be a string', SAVE_ERR.badRequest);

  const existing = data._id === undefined ? undefined : context.store.get(data._id, caller.scope);
  const nowIso = new Date(context.now()).toISOString();
  let message: string;
  let saved: UpstreamRecord;
  const stored = asEntityStores(data, context.writes);
  if (existing?.objectName === objectName) {
    context.replica?.beforeWrite(existing.id, existing);
    if (context.writes.saveWithId === 'replaces') context.store.replace(existing, stored, nowIso);
    else context.store.merge(existing, stored, nowIso);
    if (context.readQuirks.naturalOrderMoves === true) context.store.moveToEnd(existing);
    saved = existing.record;
    message = 'object updated';
  } else {
    let id = context.newId();
    while (context.store.hasId(id)) id = context.newId();
    const { _id: _ignored, ...fields } = stored;
    saved = context.store.add({
      objectName,
      applicationCode,
      organizationCode,
      createdAt: nowIso,
      updatedAt: nowIso,
      createdBy: caller.user.userId,
      version: 1,
      record: { _id: id, ...fields },
    }).record;
    context.replica?.beforeWrite(id, undefined);
    message = 'object created';
  }
  try {
    await context.persist();
  } catch {
    return fail('the object could not be stored durably', SAVE_ERR.storage);
  }
  const answer = saveSuccess(context.writes.saveIdAt, message, saved);
  return { statusCode: 200, json: jsonText(answer), callback };
}

/**
 * `GET /studio/jsonp/update/{savedObjectId}`: query `objectName`, `data` (JSON object of the fields to
 * change; with `updateFields: 'params'` every other parameter is a text field instead), `apiToken`,
 * `username`, `applicationCode`, `organizationCode`, `callback`. Answers the fields whose value changed.
 */
export async function handleUpdate(context: EmulatorContext, request: OperationRequest): Promise<Reply> {
  const { query } = request;
  const call = checkTypedQueryCall(context, request, false);
  if ('statusCode' in call) return call;
  const { callback, scope, objectName } = call;
  let data: unknown;
  if (context.writes.updateFields === 'params') {
    data = fieldsFromParams(query);
  } else {
    const rawData = query.get('data');
    if (rawData === null || rawData === '')
      return serviceError('missing data: the fields to change, as a JSON object', callback);
    data = parseJson(rawData)?.value;
  }
  if (!isPlainObject(data)) return serviceError('data must be a JSON object', callback);
  const object = request.pathId === undefined ? undefined : context.store.get(request.pathId, scope);
  if (object?.objectName !== objectName) return serviceError('object not found', callback);
  if (data._id !== undefined && data._id !== object.id)
    return serviceError('the _id of an object cannot be changed', callback);

  context.replica?.beforeWrite(object.id, object);
  const updatedFields = context.store.merge(
    object,
    asEntityStores(data, context.writes),
    new Date(context.now()).toISOString(),
  );
  if (Object.keys(updatedFields).length > 0) {
    if (context.readQuirks.naturalOrderMoves === true) context.store.moveToEnd(object);
    try {
      await context.persist();
    } catch {
      return serviceError('the object could not be stored durably', callback);
    }
  }
  const payload = { status: 'success', message: 'object updated', savedObjectId: object.id, updatedFields };
  return { statusCode: 200, json: jsonText(payload), callback };
}
