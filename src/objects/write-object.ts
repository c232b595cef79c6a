/**
 * Saving and updating an object, for the generic and the typed API alike: the write goes through the write
 * handle, then the request forgets what it cached about that object (and the pages and finds of its type),
 * so the payload's `object`, read back through the loaders only when selected, is the written version.
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import type { DataObjectModel, SavePayloadModel, UpdatePayloadModel } from './mappers.ts';
import { readObject, toModel } from './read-object.ts';

/** Saves a new object (or the one `data._id` names); answers the save payload. */
export async function saveObject(
  auth: AuthenticatedContext,
  objectName: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
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
