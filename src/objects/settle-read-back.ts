/**
 * What a write's read-back (`read-back-write.ts`) means for the write's payload, shared by the saves and the
 * update (`write-object.ts`, `save-by-id.ts`).
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import { isUpstreamError, markApplied, type UpstreamError } from '../errors/upstream-error.ts';
import { parseExactJson } from '../upstream/dialect/exact-json.ts';
import type { SaveResult } from '../upstream/client/types.ts';
import { notShownYet, storedOtherwise } from '../upstream/dialect/writes/write-mismatches.ts';
import type { SavePayloadModel, VerifiedReadBack } from './mappers.ts';
import { readBackWrite, type ReadBackOutcome } from './read-back-write.ts';
import { setOwn } from './save-named.ts';

/**
 * The payload of a save that created object `result.savedObjectId` from `sent`, once its read-back is
 * settled: any read that finds the object shows the save (it did not exist before).
 */
export async function verifiedSave(
  auth: AuthenticatedContext,
  objectName: string,
  result: SaveResult,
  sent: Readonly<Record<string, unknown>>,
): Promise<SavePayloadModel> {
  const id = result.savedObjectId;
  const outcome = await readBackWrite(auth, objectName, id, { sent, before: null });
  return {
    id,
    message: result.message,
    objectName,
    readBack: settleReadBack(auth, 'save', objectName, id, outcome, sent),
  };
}

/**
 * What a write's read-back means for its payload: the record (kept in the request's cache, so every later
 * read of it in the request answers the verified version), a mismatch thrown for fields stored otherwise, or
 * the `read_after_write` mismatch the payload's `object` answers.
 */
export function settleReadBack(
  auth: AuthenticatedContext,
  operation: 'save' | 'update',
  objectName: string,
  id: string,
  outcome: ReadBackOutcome,
  sent: Readonly<Record<string, unknown>>,
  whole = false,
): VerifiedReadBack {
  rememberWrite(auth, objectName, id, outcome, sent, whole);
  switch (outcome.kind) {
    case 'shown':
      auth.loaders.primeObject(objectName, outcome.record);
      return { record: outcome.record };
    case 'differs':
      throw storedOtherwise(operation, id, outcome.differences);
    case 'not_shown':
      return { notShown: notShownError(auth, operation, id, outcome) };
  }
}

/**
 * The error a write's payload answers for its `object` when the read-back did not show it: the read's own
 * failure when it failed (marked applied: the write stands, its id in the payload), else `read_after_write`.
 * `unverified`: what else that read would have verified.
 */
export function notShownError(
  auth: AuthenticatedContext,
  operation: 'save' | 'update',
  id: string,
  outcome: Extract<ReadBackOutcome, { kind: 'not_shown' }>,
  unverified?: string,
): UpstreamError {
  const { failure, differences } = outcome;
  if (isUpstreamError(failure) && unverified === undefined) return markApplied(failure, id);
  return notShownYet(operation, id, auth.writeReadBackMillis, { failure, differences, unverified });
}

/** The least time a write is remembered (`recent-writes.ts`). */
const REMEMBER_MILLIS = 10_000;

/**
 * Remembers what a write stored (`recent-writes.ts`), for the reads before later saves with `_id` to wait
 * for: the fields sent, or where the read-back showed them otherwise, what it showed (a field it dropped is
 * nothing to wait for); `whole`: the write replaced the object with them.
 */
export function rememberWrite(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  outcome: ReadBackOutcome,
  sent: Readonly<Record<string, unknown>>,
  whole = false,
): void {
  if (auth.recentWrites === undefined) return;
  let stored = sent;
  if (outcome.kind === 'differs') {
    const shown: Record<string, unknown> = {};
    for (const field of Object.keys(sent)) {
      if (Object.hasOwn(outcome.record, field)) setOwn(shown, field, outcome.record[field]);
    }
    stored = shown;
  }
  remember(auth, objectName, id, stored, whole);
}

/**
 * Remembers `stored` as what object `id` now holds (`recent-writes.ts`), for longer than the read-back waits:
 * a write its reads did not show yet is the one most worth waiting for.
 */
function remember(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  stored: Readonly<Record<string, unknown>>,
  whole?: boolean,
): void {
  auth.recentWrites?.remember(
    objectName,
    id,
    stored,
    Math.max(auth.writeReadBackMillis, REMEMBER_MILLIS),
    whole,
  );
}

/**
 * Remembers what a write the upstream applied although its answer was an error stored, as far as the error
 * tells (`extensions.fields`: the values it answered for those fields; every other field sent, as sent): a
 * later save with `_id` must not trust a read that does not show it yet. Nothing when it tells nothing.
 */
export function rememberAppliedError(
  auth: AuthenticatedContext,
  objectName: string,
  id: string | undefined,
  sent: Readonly<Record<string, unknown>>,
  error: unknown,
): void {
  if (auth.recentWrites === undefined || !isUpstreamError(error) || error.applied === undefined) return;
  const objectId = error.applied.objectId ?? id;
  if (objectId === undefined) return;
  const answered = new Map((error.fields ?? []).map((difference) => [difference.field, difference.readBack]));
  // A mismatch that names no field (a parameter taken for a field, an id elsewhere) says nothing of them.
  if (error.fields === undefined && error.assumption?.name !== 'save_id') return;
  const stored: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(sent)) {
    const text = answered.get(field);
    let kept: unknown = value;
    if (answered.has(field)) {
      if (text === null || text === undefined) continue;
      try {
        kept = parseExactJson(text);
      } catch {
        continue;
      }
    }
    setOwn(stored, field, kept);
  }
  remember(auth, objectName, objectId, stored);
}
