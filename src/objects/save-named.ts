/**
 * The save of an object the caller named by `_id`, shared by the save itself and the write-back of the fields
 * it dropped (`save-by-id.ts`, `restore-fields.ts`), and the two little record helpers both use.
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { isUpstreamError, type UpstreamError } from '../errors/upstream-error.ts';
import type { SaveResult } from '../upstream/client/types.ts';

/** A save of an existing object, with the `save_id` mismatch its answer made, to throw after verifying. */
export type NamedSave = SaveResult & { idMismatch?: UpstreamError };

/**
 * The save of existing object `id`, whose answer may hold the id elsewhere than `UPSTREAM_SAVE_ID_AT` says
 * (`save_id`): the object written is still `id` (the caller named it), so the merge is verified all the same,
 * and that mismatch is answered after it (`idMismatch`), not before: otherwise a replacing upstream's dropped
 * fields would stay lost behind an error that says only where the id was.
 */
export async function saveNamed(
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

/** A field of `record`, `undefined` when it has none (own fields only). */
export function fieldOf(record: Readonly<Record<string, unknown>>, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
}

/** Defines rather than assigns, so a field named `__proto__` stays a field. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
