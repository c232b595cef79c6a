/**
 * Saving and updating an object, for the generic and the typed API alike: the write goes through the write
 * handle, then the request forgets what it cached about that object (and the pages and finds of its type),
 * so the payload's `object`, read back through the loaders only when selected, is the written version.
 *
 * Some writes need a read beside them (docs/design.md, "Filling the gaps of the contract"): a save naming an
 * `_id` (`save-by-id.ts`), and an update whose `updatedFields` names none of the fields sent: they either
 * held those values already (nothing to change), or the upstream did not take them (a dialect mismatch).
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { needsReadBack, recordHolds, updateFieldsMismatch } from '../upstream/dialect/updated-fields.ts';
import type { DataObjectModel, SavePayloadModel, UpdatePayloadModel } from './mappers.ts';
import { readObject, toModel } from './read-object.ts';
import { saveById } from './save-by-id.ts';

/** Saves a new object (or the one `data._id` names, fields merged); answers the save payload. */
export async function saveObject(
  auth: AuthenticatedContext,
  objectName: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  const id = data._id;
  if (typeof id === 'string') return saveById(auth, objectName, id, data);
  const result = await auth.writes.save(auth.credentials, objectName, data);
  auth.loaders.clearObject(objectName, result.savedObjectId);
  return { id: result.savedObjectId, message: result.message, objectName };
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
