/**
 * `saveObject` with `_id` naming an existing object keeps its documented meaning, "fields merged" (fields
 * not sent keep their values), whatever the upstream's save does (`UPSTREAM_SAVE_WITH_ID`, assumption
 * `save_with_id`; docs/design.md):
 * - `replaces`: the gateway reads the object and saves it whole, the fields sent over it. A change another
 *   writer makes between that read and the save is lost (the upstream has no version to compare and swap);
 * - `merges`: the save is sent as it is and verified by a read before and after; a field the upstream
 *   dropped (it replaces after all) is written back and the caller told (`UPSTREAM_DIALECT_MISMATCH`).
 * Either way an `_id` naming no object is sent as it is (the upstream creates a new object), and a save
 * that answers another id than the existing object's created a copy instead: a mismatch too, never silent.
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { isUpstreamError, type UpstreamError } from '../errors/upstream-error.ts';
import { dialectMismatch } from '../upstream/dialect/assumptions.ts';
import type { SaveResult } from '../upstream/client/types.ts';
import type { SavePayloadModel } from './mappers.ts';
import { readObject } from './read-object.ts';

/** Saves `data` (which names `id` as its `_id`) with the fields not sent kept; answers the save payload. */
export function saveById(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  return auth.saveWithId === 'replaces'
    ? mergeAndSave(auth, objectName, id, data)
    : saveAndVerifyMerge(auth, objectName, id, data);
}

/**
 * The save of an upstream that replaces: the current object with `data` over it, written whole. An `_id`
 * that names no object is sent as it is, as an upstream that merges gets it (it creates a new object).
 */
async function mergeAndSave(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  // Fresh: an object this request read earlier may have changed since.
  auth.loaders.clearObject(objectName, id);
  const current = await readObject(auth, objectName, id);
  const merged = current === null ? data : { ...current, ...data };
  const result = await auth.writes.save(auth.credentials, objectName, merged);
  auth.loaders.clearObject(objectName, result.savedObjectId);
  if (current !== null && result.savedObjectId !== id)
    throw createdInstead(auth, objectName, id, result.savedObjectId);
  return { id: result.savedObjectId, message: result.message, objectName };
}

/**
 * The save of an upstream said to merge (`UPSTREAM_SAVE_WITH_ID=merges`), verified: the object is read
 * before and after, and a field the upstream dropped (it replaces after all) is written back from the
 * version read before, then answered as `UPSTREAM_DIALECT_MISMATCH` (`save_with_id`), so no field is lost
 * silently. The read after is the one the payload's `object` answers from (the request's cache).
 */
async function saveAndVerifyMerge(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  auth.loaders.clearObject(objectName, id);
  const before = await readObject(auth, objectName, id);
  const result: NamedSave =
    before === null
      ? await auth.writes.save(auth.credentials, objectName, data)
      : await saveNamed(auth, objectName, id, data);
  auth.loaders.clearObject(objectName, result.savedObjectId);
  const payload = { id: result.savedObjectId, message: result.message, objectName };
  if (before === null) return payload;
  if (result.savedObjectId !== id) throw createdInstead(auth, objectName, id, result.savedObjectId);
  const after = await readObject(auth, objectName, id);
  const dropped =
    after === null
      ? []
      : Object.keys(before).filter(
          (key) => key !== '_id' && !Object.hasOwn(data, key) && !Object.hasOwn(after, key),
        );
  if (after === null || dropped.length === 0) {
    if (result.idMismatch !== undefined) throw result.idMismatch;
    return payload;
  }
  const restored: Record<string, unknown> = { ...after };
  for (const key of dropped) {
    Object.defineProperty(restored, key, {
      value: before[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  await saveNamed(auth, objectName, id, restored);
  auth.loaders.clearObject(objectName, id);
  throw dialectMismatch(
    'save',
    'save_with_id',
    `the save of object "${id}" replaced it with the fields sent, dropping ${dropped.length} other field(s) (${dropped.map((key) => JSON.stringify(key)).join(', ')}): the upstream replaces (UPSTREAM_SAVE_WITH_ID=replaces). The gateway wrote them back from the version it read just before (a change another writer made to them in between is lost); the fields sent are saved: do not save them again.${result.idMismatch === undefined ? '' : ' Its answers also hold the id elsewhere than UPSTREAM_SAVE_ID_AT says (npm run upstream:check finds where).'}`,
    undefined,
    { objectId: id },
  );
}

/** A save of an existing object, with the `save_id` mismatch its answer made, to throw after verifying. */
type NamedSave = SaveResult & { idMismatch?: UpstreamError };

/**
 * The save of existing object `id`, whose answer may hold the id elsewhere than `UPSTREAM_SAVE_ID_AT` says
 * (`save_id`): the object written is still `id` (the caller named it), so the merge is verified all the same,
 * and that mismatch is answered after it (`idMismatch`), not before: otherwise a replacing upstream's dropped
 * fields would stay lost behind an error that says only where the id was.
 */
async function saveNamed(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<NamedSave> {
  try {
    return await auth.writes.save(auth.credentials, objectName, data);
  } catch (error) {
    const named = isUpstreamError(error) && error.assumption?.name === 'save_id';
    // Another id found in the answer is not this object: that stays the caller's to read (createdInstead).
    if (!named || (error.applied?.objectId ?? id) !== id) throw error;
    // Never answered as a payload: the mismatch is thrown once the merge is verified.
    return { savedObjectId: id, message: '', idMismatch: error };
  }
}

/** The mismatch of a save naming existing object `id` that answered `answered`: a new object was made. */
function createdInstead(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  answered: string,
): UpstreamError {
  auth.loaders.clearObject(objectName, id);
  return dialectMismatch(
    'save',
    'save_with_id',
    `the save of object "${id}" answered another id, "${answered}": the upstream created a new object instead of writing it. Do not save it again; read both.`,
    undefined,
    { objectId: answered },
  );
}
