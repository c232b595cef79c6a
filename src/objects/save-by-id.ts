/**
 * `saveObject` with `_id` naming an existing object keeps its documented meaning, "fields merged" (fields
 * not sent keep their values), whatever the upstream's save does, and never makes the object worse:
 * - on an upstream (or a type, `replacing-types.ts`) that replaces, the gateway reads the object fresh and
 *   saves it whole, the fields sent over it; a field it cannot send back exactly as the upstream gave it
 *   (`isRestorable`: MongoDB's `{"$date": …}`, `{"$oid": …}`) stops the save before anything is written. A
 *   change another writer makes between that read and the save is lost (the upstream has no version to
 *   compare and swap);
 * - on one said to merge, the save is sent as it is, then read back (`read-back-write.ts`) until it shows the
 *   write; a field the upstream dropped or reset (it replaces after all) is written back, after that fresh
 *   read, only with the value the upstream itself gave before, and only when every field the write-back must
 *   carry can be sent exactly. What cannot be restored so is named (`applied.lostFields`), never guessed.
 * Either way an `_id` the reads do not show (within `UPSTREAM_WRITE_READ_BACK_MS`), or show without what this
 * gateway wrote to it a moment ago (`recent-writes.ts`), is refused before sending: the object may exist behind
 * a lagging replica, and a save the gateway could not read before could wipe it or undo that write (an `_id`
 * naming no object would only make a new object with another id). A save that answers another id
 * than the existing object's created a copy instead: a mismatch too, never silent. Every error after the save
 * was sent says it was applied.
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { isUpstreamError, type UpstreamError } from '../errors/upstream-error.ts';
import { dialectMismatch } from '../upstream/dialect/assumptions.ts';
import type { SaveResult, UpstreamRecord } from '../upstream/client/types.ts';
import { isRestorable, sameStoredValue } from '../upstream/dialect/writes/stored-value.ts';
import type { SavePayloadModel } from './mappers.ts';
import { readBackWrite } from './read-back-write.ts';
import { notShownError, rememberWrite, settleReadBack } from './settle-read-back.ts';
import { restoreFields } from './restore-fields.ts';
import { fieldOf, saveNamed, setOwn } from './save-named.ts';
import { notVisibleBeforeSave } from '../upstream/dialect/writes/write-mismatches.ts';

/** Saves `data` (which names `id` as its `_id`) with the fields not sent kept; answers the save payload. */
export async function saveById(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
): Promise<SavePayloadModel> {
  const before = await readBefore(auth, objectName, id);
  if (before === null) throw notVisibleBeforeSave(id, auth.writeReadBackMillis);
  const save =
    auth.saveWithId === 'replaces' || auth.replacingTypes?.has(objectName) === true ? saveWhole : saveAndKeep;
  return save(auth, objectName, id, data, before);
}

/** A save with `_id` of an object that exists (`before`, as read just now), by how the upstream saves one. */
type SaveOfExisting = (
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
  before: UpstreamRecord,
) => Promise<SavePayloadModel>;

/**
 * The object before the save, read fresh. A missing one is read again within `UPSTREAM_WRITE_READ_BACK_MS`:
 * an object created a moment ago may not be on the replica the reads go to, and saving it as new would let a
 * replacing upstream wipe it.
 */
export async function readBefore(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
): Promise<UpstreamRecord | null> {
  // What this gateway wrote to the object a moment ago must show: an older version, saved whole or written
  // back, would undo it.
  const written = auth.recentWrites?.recall(objectName, id) ?? {};
  const waitFor = Object.keys(written);
  // Every field must show: a version showing some is no proof (they may come from an earlier write).
  const outcome = await readBackWrite(auth, objectName, id, {
    sent: written,
    before: undefined,
    changed: [],
  });
  if (outcome.kind !== 'not_shown') return outcome.record;
  // Nothing was written yet: a failed read is the read's own error.
  if (outcome.failure !== undefined) throw outcome.failure;
  if (outcome.record === null) return null;
  throw notVisibleBeforeSave(id, auth.writeReadBackMillis, waitFor);
}

/** The save of an upstream (or type) that replaces: the object read fresh, the fields sent over it. */
const saveWhole: SaveOfExisting = async (auth, objectName, id, data, before) => {
  const kept = keptFields(before, data);
  const lossy = auth.writes.mayAnswerLossyText?.() === true;
  const unsendable = kept.filter((field) => !isRestorable(before[field], lossy));
  if (unsendable.length > 0) throw cannotKeep(id, unsendable);
  const whole: Record<string, unknown> = {};
  for (const field of kept) setOwn(whole, field, before[field]);
  for (const [field, value] of Object.entries(data)) setOwn(whole, field, value);
  const result = await sendKept(auth, objectName, whole, data, id);
  const { sent, outcome } = await readBackSaved(auth, objectName, id, result.savedObjectId, whole, before);
  return {
    id,
    message: result.message,
    objectName,
    readBack: settleReadBack(auth, 'save', objectName, id, outcome, sent, true),
  };
};

/**
 * The save of an upstream said to merge, verified: read back until it shows the fields sent, then every
 * field not sent must still hold its value from before. One that does not (the upstream replaces after all)
 * is written back (`restore-fields.ts`) and answered as `UPSTREAM_DIALECT_MISMATCH` (`save_with_id`), applied.
 */
const saveAndKeep: SaveOfExisting = async (auth, objectName, id, data, before) => {
  const result = await saveNamed(auth, objectName, id, data);
  const { sent, outcome } = await readBackSaved(auth, objectName, id, result.savedObjectId, data, before);
  const payload = { id, message: result.message, objectName };
  if (outcome.kind === 'not_shown') {
    rememberWrite(auth, objectName, id, outcome, sent);
    if (result.idMismatch !== undefined) throw result.idMismatch;
    const kept = keptFields(before, data).length;
    const notShown = notShownError(
      auth,
      'save',
      id,
      outcome,
      `Whether it kept the ${kept} field(s) not sent is not verified either (an upstream that replaces would have dropped them).`,
    );
    return { ...payload, readBack: { notShown } };
  }
  const lost = keptFields(before, data).filter((field) =>
    isLost(before[field], fieldOf(outcome.record, field)),
  );
  if (lost.length > 0) {
    auth.replacingTypes?.add(objectName);
    const storedOtherwise = outcome.kind === 'differs' ? outcome.differences : undefined;
    return restoreFields(
      auth,
      objectName,
      id,
      data,
      before,
      outcome.record,
      lost,
      result.idMismatch,
      storedOtherwise,
    );
  }
  const readBack = settleReadBack(auth, 'save', objectName, id, outcome, sent);
  if (result.idMismatch !== undefined) throw result.idMismatch;
  return { ...payload, readBack };
};

/**
 * The whole object's save on a replacing upstream. A refusal for a field the caller did not send (the value
 * came from the upstream itself) is no mistake of the caller's: nothing was written, and the save cannot keep
 * that field, which a dialect mismatch says.
 */
async function sendKept(
  auth: AuthenticatedContext,
  objectName: string,
  whole: Record<string, unknown>,
  data: Record<string, unknown>,
  id: string,
): Promise<SaveResult> {
  try {
    return await auth.writes.save(auth.credentials, objectName, whole);
  } catch (error) {
    if (!isUpstreamError(error) || error.kind !== 'invalid_input') throw error;
    const field = /^data\.([^.]+)/.exec(error.argument ?? '')?.[1];
    if (field === undefined || Object.hasOwn(data, field)) throw error;
    throw cannotKeep(id, [field], error);
  }
}

/** A replacing save that would have to send back `fields` as the gateway cannot: refused, nothing written. */
function cannotKeep(id: string, fields: readonly string[], cause?: unknown): UpstreamError {
  return dialectMismatch(
    'save',
    'save_with_id',
    `a save of object "${id}" replaces it whole on this upstream (UPSTREAM_SAVE_WITH_ID=replaces), so the gateway must send back the fields not sent, and it cannot send ${fields.map((field) => JSON.stringify(field)).join(', ')} back exactly as the upstream gave it (MongoDB's extended JSON, or a value the upstream's request limits refuse). Nothing was written: change the fields with updateObject instead.`,
    cause,
  );
}

/**
 * Whether a field not sent, `then` before the save and `now` after it, was lost by the save: dropped, or reset
 * to the default a Java entity gives a field its body lacked (`null`, `0`, `false`, `""`). Any other new value
 * is taken as another writer's (or a version the read before did not show yet, behind a lagging replica):
 * writing the old value back over it would undo a change, not restore a loss.
 */
function isLost(then: unknown, now: unknown): boolean {
  if (now === undefined) return then !== undefined;
  const reset = now === null || now === 0 || now === false || now === '';
  return reset && !sameStoredValue(then, now);
}

/** The fields of `before` the save does not send (its `_id` aside): the ones a merge keeps. */
function keptFields(before: UpstreamRecord, data: Record<string, unknown>): string[] {
  return Object.keys(before).filter((field) => field !== '_id' && !Object.hasOwn(data, field));
}

/**
 * After a save naming existing object `id` that answered `savedObjectId`: the mismatch when a new object was
 * made instead, else what was sent (`written` without its `_id`) and its read-back over `before`.
 */
async function readBackSaved(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  savedObjectId: string,
  written: Record<string, unknown>,
  before: UpstreamRecord,
) {
  if (savedObjectId !== id) throw createdInstead(auth, objectName, id, savedObjectId);
  const sent = withoutId(written);
  const outcome = await readBackWrite(auth, objectName, id, { sent, before });
  return { sent, outcome };
}

function withoutId(data: Record<string, unknown>): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(data)) if (field !== '_id') setOwn(rest, field, value);
  return rest;
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
