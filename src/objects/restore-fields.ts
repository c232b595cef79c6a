/**
 * The write-back of the fields a save with `_id` dropped or reset on an upstream said to merge (it replaces
 * after all): only after the fresh read that showed the save, only with the values the upstream itself gave,
 * and only when every field the write-back must carry can be sent exactly. It always ends in
 * `UPSTREAM_DIALECT_MISMATCH` (`save_with_id`), applied, naming what stayed lost (`lostFields`).
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { isUpstreamError, type UpstreamError } from '../errors/upstream-error.ts';
import type { UpstreamRecord } from '../upstream/client/types.ts';
import { dialectMismatch } from '../upstream/dialect/assumptions.ts';
import {
  describeDifferences,
  type FieldDifference,
} from '../upstream/dialect/writes/read-back-differences.ts';
import { isRestorable, sameStoredValue } from '../upstream/dialect/writes/stored-value.ts';
import { readBackWrite } from './read-back-write.ts';
import { fieldOf, saveNamed, setOwn } from './save-named.ts';
import { rememberWrite } from './settle-read-back.ts';

/**
 * Writes back the fields a save with `_id` dropped or reset (`lost`), after the fresh read `current` that
 * showed the save: the fields sent as the caller sent them, every other field as the upstream gave it
 * (before the save for the lost ones, in `current` for the rest). Only when every one of those can be sent
 * back exactly; otherwise nothing more is written. Always ends in `UPSTREAM_DIALECT_MISMATCH`, applied,
 * naming the fields still lost.
 */
export async function restoreFields(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  data: Record<string, unknown>,
  before: UpstreamRecord,
  current: UpstreamRecord,
  lost: readonly string[],
  idMismatch: UpstreamError | undefined,
  storedOtherwise: readonly FieldDifference[] | undefined,
): Promise<never> {
  // A lost field the gateway cannot send back exactly stays lost (it is gone already); one the object still
  // holds that way stops the write-back, which would drop or corrupt it.
  const lossy = auth.writes.mayAnswerLossyText?.() === true;
  const restorable = lost.filter((field) => isRestorable(before[field], lossy));
  const unrestorable = lost.filter((field) => !restorable.includes(field));
  const body: Record<string, unknown> = {};
  for (const field of Object.keys(current)) if (field !== '_id') setOwn(body, field, current[field]);
  for (const field of restorable) setOwn(body, field, before[field]);
  for (const [field, value] of Object.entries(data)) if (field !== '_id') setOwn(body, field, value);
  const unsendable = Object.keys(body).filter(
    (field) => !Object.hasOwn(data, field) && !isRestorable(body[field], lossy),
  );
  const named = lost.map((field) => JSON.stringify(field)).join(', ');
  const replaced = `the save of object "${id}" replaced it with the fields sent, dropping or resetting ${lost.length} other field(s) (${named}): the upstream replaces (UPSTREAM_SAVE_WITH_ID=replaces; the gateway now reads, merges and writes this type whole). The fields sent are saved: do not save them again.`;
  const idNote =
    idMismatch === undefined
      ? ''
      : ' Its answers also hold the id elsewhere than UPSTREAM_SAVE_ID_AT says (npm run upstream:check finds where).';
  if (unsendable.length > 0 || restorable.length === 0) {
    const why =
      unsendable.length > 0
        ? `${unsendable.map((field) => JSON.stringify(field)).join(', ')} cannot be sent back exactly as the upstream gave it (MongoDB's extended JSON), and a write-back without it would drop it`
        : "none of the lost fields can be sent back exactly as the upstream gave them (MongoDB's extended JSON)";
    throw lostMismatch(
      id,
      `${replaced} The gateway wrote nothing back: ${why}. Restore the lost fields from a copy.${idNote}`,
      lost,
      undefined,
      storedOtherwise,
    );
  }
  const unrestorableNote =
    unrestorable.length === 0
      ? ''
      : ` ${unrestorable.map((field) => JSON.stringify(field)).join(', ')} cannot be sent back exactly as the upstream gave it (MongoDB's extended JSON): lost, restore it from a copy.`;
  try {
    const write: Record<string, unknown> = { _id: id };
    for (const [field, value] of Object.entries(body)) setOwn(write, field, value);
    await saveNamed(auth, objectName, id, write);
  } catch (error) {
    auth.loaders.clearObject(objectName, id);
    throw lostMismatch(
      id,
      `${replaced} Writing them back failed (${isUpstreamError(error) ? error.kind : 'an error'}): count them lost; read the object, and restore what is missing from a copy.${idNote}`,
      lost,
      error,
      storedOtherwise,
    );
  }
  const check = await readBackWrite(auth, objectName, id, { sent: body, before: current });
  rememberWrite(auth, objectName, id, check, body, true);
  const notRestored =
    check.kind === 'shown'
      ? []
      : restorable.filter(
          (field) => check.record === null || !sameStoredValue(before[field], fieldOf(check.record, field)),
        );
  if (notRestored.length === 0) {
    throw lostMismatch(
      id,
      `${replaced} The gateway wrote ${unrestorable.length === 0 ? 'them' : `${restorable.length} of them`} back, exactly as the upstream gave them just before the save (a change another writer made to them in between is lost).${unrestorableNote}${idNote}`,
      unrestorable,
      undefined,
      storedOtherwise,
    );
  }
  throw lostMismatch(
    id,
    `${replaced} The gateway wrote them back, but the object read back does not show ${notRestored.map((field) => JSON.stringify(field)).join(', ')} restored${check.kind === 'not_shown' ? ' yet (its reads may lag)' : ''}: read the object, and restore what is missing from a copy.${unrestorableNote}${idNote}`,
    [...notRestored, ...unrestorable],
    undefined,
    storedOtherwise,
  );
}

/** `save_with_id`, applied, with the fields lost (none: every one restored). */
function lostMismatch(
  id: string,
  detail: string,
  lost: readonly string[],
  cause: unknown,
  storedOtherwise: readonly FieldDifference[] | undefined,
): UpstreamError {
  const also =
    storedOtherwise === undefined
      ? ''
      : ` The fields sent are stored otherwise than sent, too: ${describeDifferences(storedOtherwise)}.`;
  return dialectMismatch(
    'save',
    'save_with_id',
    `${detail}${also}`,
    cause,
    { objectId: id, ...(lost.length === 0 ? {} : { lostFields: lost }) },
    storedOtherwise,
  );
}
