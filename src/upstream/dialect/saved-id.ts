/**
 * Where a save answer carries the saved object's id (`UPSTREAM_SAVE_ID_AT`, assumption `save_id`). The
 * document says `savedObjectId`; an upstream that answers the saved entity (`data: {_id, …}`, as a Spring
 * controller returning `repository.save(…)` does) or the bare id (`data: "…"`) is as common. A success
 * answer proves the object was written, so an id the gateway cannot find there is never "the outcome is
 * unknown" (which invites a retry, and a duplicate): the caller is told the object exists.
 */
import { dialectMismatch } from './assumptions.ts';

/** The places a save answer may carry the id, in the order the check and the error messages try them. */
export const SAVE_ID_PLACES = ['savedObjectId', 'data._id', 'data'] as const;

/** One of {@link SAVE_ID_PLACES}. */
export type SaveIdAt = (typeof SAVE_ID_PLACES)[number];

/** A save success as decoded: `status` checked, the rest as it came. */
export interface SaveSuccess {
  savedObjectId?: unknown;
  data?: unknown;
}

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The id at `at` in `answer`, or `undefined` when that place holds no non-empty string. */
export function savedIdAt(answer: SaveSuccess, at: SaveIdAt): string | undefined {
  if (at === 'savedObjectId') return isId(answer.savedObjectId) ? answer.savedObjectId : undefined;
  const { data } = answer;
  if (at === 'data') return isId(data) ? data : undefined;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const id: unknown = Object.hasOwn(data, '_id') ? (data as { _id?: unknown })._id : undefined;
  return isId(id) ? id : undefined;
}

/** The first place of {@link SAVE_ID_PLACES} that holds an id, with the id; `undefined` when none does. */
export function findSavedId(answer: SaveSuccess): { at: SaveIdAt; id: string } | undefined {
  for (const at of SAVE_ID_PLACES) {
    const id = savedIdAt(answer, at);
    if (id !== undefined) return { at, id };
  }
  return undefined;
}

/**
 * The id of a successful save, read where `at` says; otherwise `UPSTREAM_DIALECT_MISMATCH` (`save_id`),
 * marked applied, that tells the caller the object was created and how to find it without a duplicate:
 * by its id when the answer holds one elsewhere, else by a field it saved.
 */
export function readSavedId(answer: SaveSuccess, at: SaveIdAt, sentId: string | undefined): string {
  const id = savedIdAt(answer, at);
  if (id !== undefined) return id;
  const found = findSavedId(answer);
  const written = sentId === undefined ? 'The object was created' : 'The object was written';
  const where =
    found === undefined
      ? 'the answer holds no id at all (neither savedObjectId, data._id nor data).'
      : `it holds one at ${found.at} ("${found.id}"): UPSTREAM_SAVE_ID_AT=${found.at}.`;
  const find =
    found !== undefined
      ? 'read it by that id.'
      : `find it with objects(filter: …) by a field you saved${sentId === undefined ? '' : ` (or by the _id "${sentId}" you sent, if it named an existing object)`}.`;
  throw dialectMismatch(
    'save',
    'save_id',
    `status success, but no id at ${at}; ${where} ${written}: do not save it again, ${find}`,
    undefined,
    { objectId: found?.id },
  );
}
