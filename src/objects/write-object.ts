/**
 * Saving and updating an object, for the generic and the typed API alike: the write goes through the write
 * handle, then the request forgets what it cached about that object (and the pages and finds of its type),
 * so the payload's `object`, read back through the loaders only when selected, is the written version.
 *
 * Some writes need a read beside them (docs/design.md, "Filling the gaps of the contract"):
 * - a save naming an existing `_id` on an upstream that replaces (`UPSTREAM_SAVE_WITH_ID=replaces`) keeps
 *   `saveObject`'s "fields merged" meaning by reading the object and writing it whole, the fields sent
 *   over it. A change another writer makes between that read and the write is lost (the upstream has no
 *   version to compare and swap);
 * - on an upstream said to merge, the same save is verified by a read before and after: a field dropped
 *   (it replaces after all) is written back, and the caller told (`UPSTREAM_DIALECT_MISMATCH`);
 * - an update whose `updatedFields` names none of the fields sent is read back: they either held those
 *   values already (nothing to change), or the upstream did not take them (a dialect mismatch).
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { dialectMismatch } from '../upstream/dialect/assumptions.ts';
import { needsReadBack, recordHolds, updateFieldsMismatch } from '../upstream/dialect/updated-fields.ts';
import type { DataObjectModel, SavePayloadModel, UpdatePayloadModel } from './mappers.ts';
import { readObject, toModel } from './read-object.ts';

/** Saves a new object (or the one `data._id` names, fields merged); answers the save payload. */
export async function saveObject(
  auth: AuthenticatedContext,
  objectName: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  const id = data._id;
  if (typeof id === 'string') {
    return auth.saveWithId === 'replaces'
      ? mergeAndSave(auth, objectName, id, data)
      : saveAndVerifyMerge(auth, objectName, id, data);
  }
  const result = await auth.writes.save(auth.credentials, objectName, data);
  auth.loaders.clearObject(objectName, result.savedObjectId);
  return { id: result.savedObjectId, message: result.message, objectName };
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
  if (current !== null && result.savedObjectId !== id) {
    auth.loaders.clearObject(objectName, id);
    throw dialectMismatch(
      'save',
      'save_with_id',
      `the save of object "${id}" answered another id, "${result.savedObjectId}": the upstream created a new object (with every field of "${id}") instead of writing it. Do not save it again; read both.`,
      undefined,
      { objectId: result.savedObjectId },
    );
  }
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
  const result = await auth.writes.save(auth.credentials, objectName, data);
  auth.loaders.clearObject(objectName, result.savedObjectId);
  const payload = { id: result.savedObjectId, message: result.message, objectName };
  if (before === null || result.savedObjectId !== id) return payload;
  const after = await readObject(auth, objectName, id);
  if (after === null) return payload;
  const dropped = Object.keys(before).filter(
    (key) => key !== '_id' && !Object.hasOwn(data, key) && !Object.hasOwn(after, key),
  );
  if (dropped.length === 0) return payload;
  const restored: Record<string, unknown> = { ...after };
  for (const key of dropped) {
    Object.defineProperty(restored, key, {
      value: before[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  await auth.writes.save(auth.credentials, objectName, restored);
  auth.loaders.clearObject(objectName, id);
  throw dialectMismatch(
    'save',
    'save_with_id',
    `the save of object "${id}" replaced it with the fields sent, dropping ${dropped.length} other field(s) (${dropped.map((key) => JSON.stringify(key)).join(', ')}): the upstream replaces (UPSTREAM_SAVE_WITH_ID=replaces). The gateway wrote them back from the version it read just before (a change another writer made to them in between is lost); the fields sent are saved: do not save them again.`,
    undefined,
    { objectId: id },
  );
}

/** Updates the fields `data` names of object `id`; answers the update payload. */
export async function updateObject(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<UpdatePayloadModel> {
  const result = await auth.writes.update(auth.credentials, objectName, id, data);
  auth.loaders.clearObject(objectName, result.savedObjectId);
  // The client held a contradicting `updatedFields` to what it sent; a silent one is settled by a read.
  if (needsReadBack(data, result.updatedFields)) {
    const record = await readObject(auth, objectName, result.savedObjectId);
    if (record === null || !recordHolds(record, data)) {
      throw updateFieldsMismatch(
        result.savedObjectId,
        `updatedFields names none of the ${Object.keys(data).length} field(s) sent and the object does not hold their values: the upstream did not take them in the form the gateway sends (UPSTREAM_UPDATE_FIELDS), and may have written them in another form. Read the object before trying again.`,
      );
    }
  }
  return {
    id: result.savedObjectId,
    message: result.message,
    objectName,
    updatedFields: result.updatedFields,
  };
}

/** The object a save or update wrote, read back after the cache was cleared; `null` when it is gone. */
export async function readBack(
  auth: AuthenticatedContext,
  payload: SavePayloadModel,
): Promise<DataObjectModel | null> {
  return toModel(payload.objectName, await readObject(auth, payload.objectName, payload.id));
}
