/**
 * Saving and updating an object, for the generic and the typed API alike: the write goes through the write
 * handle, then every write is read back and held to what was sent (`read-back-write.ts`, by meaning):
 * - the read-back shows every field as sent: the payload's `object` is that record;
 * - it shows the write with fields otherwise (dropped, cut, converted): `UPSTREAM_DIALECT_MISMATCH`
 *   (`stored_as_sent`), applied, naming each field with both values;
 * - the upstream's reads do not show the write in time (a lagging replica): the write's success, with a named
 *   mismatch (`read_after_write`, applied) where its `object` would be, never `null` or the old version.
 *
 * A save naming an `_id` reads the object before too (`save-by-id.ts`), and so does an update: an upstream may
 * update by `_id` alone, whatever the organization (`MongoTemplate.findById`), so an id the session's reads do
 * not show within `UPSTREAM_WRITE_READ_BACK_MS` (another organization's, or none) is `NOT_FOUND` before
 * anything is sent, and one they show of another organization is refused by the read's tenant check. An update whose `updatedFields` names
 * none of the fields sent changed nothing by its own answer: they held those values already, or the upstream
 * did not take them (a dialect mismatch); the read-back tells which, at once.
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { needsReadBack, updateFieldsMismatch } from '../upstream/dialect/writes/updated-fields.ts';
import type { DataObjectModel, SavePayloadModel, UpdatePayloadModel } from './mappers.ts';
import { readBackWrite } from './read-back-write.ts';
import { readObject, toModel } from './read-object.ts';
import { readBefore, saveById } from './save-by-id.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { rememberAppliedError, rememberWrite, settleReadBack, verifiedSave } from './settle-read-back.ts';

/** Saves a new object (or the one `data._id` names, fields merged); answers the save payload. */
export async function saveObject(
  auth: AuthenticatedContext,
  objectName: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  const id = data._id;
  if (typeof id === 'string') {
    try {
      return await saveById(auth, objectName, id, data);
    } catch (error) {
      // An applied save by id answered with an error is remembered as the newest write, as a new object's
      // is: otherwise the next write's read first waits for the write before it, which this one replaced.
      rememberAppliedError(auth, objectName, id, data, error);
      throw error;
    }
  }
  let result;
  try {
    result = await auth.writes.save(auth.credentials, objectName, data);
  } catch (error) {
    rememberAppliedError(auth, objectName, undefined, data, error);
    throw error;
  }
  return verifiedSave(auth, objectName, result, data);
}

/** Updates the fields `data` names of object `id`; answers the update payload. */
export async function updateObject(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<UpdatePayloadModel> {
  const readable = async () => {
    if ((await readBefore(auth, objectName, id)) !== null) return;
    throw new UpstreamError(
      'not_found',
      `object not found: the session's reads do not show object "${id}" after ${auth.writeReadBackMillis} ms; nothing was written`,
      { operation: 'update' },
    );
  };
  let result;
  try {
    result = await auth.writes.update(auth.credentials, objectName, id, data, readable);
  } catch (error) {
    rememberAppliedError(auth, objectName, id, data, error);
    throw error;
  }
  const { savedObjectId, updatedFields } = result;
  const silent = needsReadBack(data, updatedFields);
  const outcome = await readBackWrite(auth, objectName, savedObjectId, {
    sent: data,
    before: undefined,
    changed: Object.keys(updatedFields),
    nothingChanged: silent,
    // One query parameter per field: every value travels, and may be stored, as its text.
    compare: { textForScalars: auth.updateFields === 'params' },
  });
  // The client held a contradicting `updatedFields` to what it sent; a silent one is settled by the read.
  if (silent && outcome.kind !== 'shown' && !(outcome.kind === 'not_shown' && outcome.record === null)) {
    rememberWrite(auth, objectName, savedObjectId, outcome, data);
    throw updateFieldsMismatch(
      savedObjectId,
      `updatedFields names none of the ${Object.keys(data).length} field(s) sent and the object does not hold their values: the upstream did not take them in the form the gateway sends (UPSTREAM_UPDATE_FIELDS), and may have written them in another form. Read the object before trying again.`,
      outcome.differences,
    );
  }
  return {
    id: savedObjectId,
    message: result.message,
    objectName,
    updatedFields,
    readBack: settleReadBack(auth, 'update', objectName, savedObjectId, outcome, data),
  };
}

/**
 * The object a save or update wrote: its verified read-back, or (a payload without one) read after the cache
 * was cleared; `null` when it is gone. A write the upstream's reads do not show yet answers its mismatch.
 */
export async function readBack(
  auth: AuthenticatedContext,
  payload: SavePayloadModel,
): Promise<DataObjectModel | null> {
  const verified = payload.readBack;
  if (verified === undefined) {
    return toModel(payload.objectName, await readObject(auth, payload.objectName, payload.id));
  }
  if ('notShown' in verified) throw verified.notShown;
  return toModel(payload.objectName, verified.record);
}
