/**
 * The errors of a write whose read-back does not show what was sent. Both are `UPSTREAM_DIALECT_MISMATCH`
 * marked applied: the upstream answered success, so the write happened and must not be sent again.
 * - `stored_as_sent`: the read-back shows the write, and fields otherwise (dropped, cut, converted), each named
 *   with the value sent and the value read back;
 * - `read_after_write`: the upstream's reads did not show the write within `UPSTREAM_WRITE_READ_BACK_MS`. The
 *   write itself succeeded: this error stands where the object read back would, never an old version or a
 *   `null` as if current.
 */
import type { UpstreamError } from '../../../errors/upstream-error.ts';
import { dialectMismatch } from '../assumptions.ts';
import { describeDifferences, type FieldDifference } from './read-back-differences.ts';

/** The write was applied, but the object read back holds `differences` otherwise than sent. */
export function storedOtherwise(
  operation: 'save' | 'update',
  objectId: string,
  differences: readonly FieldDifference[],
): UpstreamError {
  return dialectMismatch(
    operation,
    'stored_as_sent',
    `the ${operation} of object "${objectId}" was applied, but the object read back holds ${differences.length} field(s) otherwise than sent: ${describeDifferences(differences)}. The upstream dropped, cut or converted them (its entity class or field types): do not send the ${operation} again, read the object.`,
    undefined,
    { objectId },
    differences,
  );
}

/**
 * The write was applied, but reads of object `objectId` did not show it within `waitedMillis` (or failed:
 * `failure`). `unverified`: what else could not be verified for want of that read (a save with `_id`).
 */
export function notShownYet(
  operation: 'save' | 'update',
  objectId: string,
  waitedMillis: number,
  options: { failure?: unknown; differences?: readonly FieldDifference[]; unverified?: string } = {},
): UpstreamError {
  const { failure, differences = [], unverified } = options;
  const seen =
    failure !== undefined
      ? 'reading it back failed'
      : differences.length === 0
        ? "the upstream's reads do not show the object yet"
        : `the upstream's reads still show another version (${describeDifferences(differences)})`;
  return dialectMismatch(
    operation,
    'read_after_write',
    `the ${operation} of object "${objectId}" succeeded, but after ${waitedMillis} ms ${seen}: its reads lag its writes (a replica), or it did not store what was sent.${unverified === undefined ? '' : ` ${unverified}`} Do not send the ${operation} again; read the object later.`,
    failure,
    { objectId },
    differences.length === 0 ? undefined : differences,
  );
}

/**
 * A save naming `_id` "objectId" that the upstream's reads do not show (within `waitedMillis`): refused before
 * anything is sent. The object may exist where the reads do not see it yet (a lagging replica), and a save
 * the gateway cannot read before could drop every field not sent; an `_id` naming no object only makes a new
 * object with another id, which a save without `_id` does too.
 */
export function notVisibleBeforeSave(
  objectId: string,
  waitedMillis: number,
  written: readonly string[] = [],
): UpstreamError {
  const seen =
    written.length === 0
      ? "the upstream's reads do not show it: it does not exist, or its reads lag its writes (a replica)"
      : `the upstream's reads still show it without its latest write (${written.map((field) => JSON.stringify(field)).join(', ')}): its reads lag its writes (a replica)`;
  return dialectMismatch(
    'save',
    'read_after_write',
    `the save names object "${objectId}" by its _id, but after ${waitedMillis} ms ${seen}. Nothing was written: a save the gateway cannot read the current object before could drop or undo fields not sent. Save it again shortly${written.length === 0 ? ', or without _id to create a new object' : ''}.`,
  );
}
