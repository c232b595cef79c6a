/**
 * The read after a write, held to what was sent. An upstream behind a balancer may read from a replica that
 * lags its writes: right after a save the object is missing, right after an update it shows its old values. So
 * a read-back that could be such an old version is read again, with growing pauses, for at most
 * `UPSTREAM_WRITE_READ_BACK_MS`; a read-back that cannot be one (the write is visible in it, yet a field shows
 * otherwise) is judged at once: the upstream stored something else than was sent.
 *
 * A replica applies a document's write whole (MongoDB does), so one field that shows its new value proves the
 * read shows the write; a field that reads back as its old value then really kept it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthenticatedContext } from '../graphql/context.ts';
import type { UpstreamRecord } from '../upstream/client/types.ts';
import {
  readBackDifferences,
  type FieldDifference,
} from '../upstream/dialect/writes/read-back-differences.ts';
import { sameStoredValue, type StoredValueOptions } from '../upstream/dialect/writes/stored-value.ts';
import { readObject } from './read-object.ts';

/** What the write is expected to show, and what the object was before it. */
export interface ReadBackExpectation {
  /** The fields sent (top level), compared by meaning. */
  sent: Readonly<Record<string, unknown>>;
  /**
   * The object as read just before the write: `null` for a new object (any read-back that finds it shows the
   * write), `undefined` when not read (an update: {@link changed} says what it changed).
   */
  before: Readonly<Record<string, unknown>> | null | undefined;
  /** For an update: the fields its answer says it changed (`updatedFields`). */
  changed?: readonly string[];
  /** An update that changed nothing by its own answer: there is no new version to wait for. */
  nothingChanged?: boolean;
  /** How values compare (`stored-value.ts`). */
  compare?: StoredValueOptions;
}

/** What the read-back showed. */
export type ReadBackOutcome =
  /** Every field as sent. */
  | { kind: 'shown'; record: UpstreamRecord }
  /** The write is visible, but these fields show otherwise: the upstream stored something else. */
  | { kind: 'differs'; record: UpstreamRecord; differences: FieldDifference[] }
  /**
   * Still missing or an old version when the time ran out (or the read failed: `failure`): the upstream's
   * reads do not show the write yet.
   */
  | {
      kind: 'not_shown';
      record: UpstreamRecord | null;
      differences: FieldDifference[];
      failure?: Error;
    };

/** The first pause between two reads, and the longest: a lag of several hundred ms takes a few reads. */
const FIRST_PAUSE_MILLIS = 25;
const MAX_PAUSE_MILLIS = 400;

/**
 * Reads object `id` until it shows `expected.sent`, the write is visibly otherwise, or the time
 * (`auth.writeReadBackMillis`) runs out. Every read is fresh (the request's cache forgotten first); the last
 * record read stays in the cache only when it shows the write.
 */
export async function readBackWrite(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
  expected: ReadBackExpectation,
): Promise<ReadBackOutcome> {
  const deadline = performance.now() + auth.writeReadBackMillis;
  let pause = FIRST_PAUSE_MILLIS;
  let last: { record: UpstreamRecord; differences: FieldDifference[] } | undefined;
  for (;;) {
    auth.loaders.clearObject(objectName, id);
    let record: UpstreamRecord | null;
    try {
      record = await readObject(auth, objectName, id);
    } catch (error) {
      // The write was applied: a failed read-back never hides it behind the read's error.
      auth.loaders.clearObject(objectName, id);
      return {
        kind: 'not_shown',
        record: last?.record ?? null,
        differences: last?.differences ?? [],
        failure: error instanceof Error ? error : new Error('the read-back failed'),
      };
    }
    if (record !== null) {
      const differences = readBackDifferences(expected.sent, record, expected.compare);
      if (differences.length === 0) return { kind: 'shown', record };
      if (showsTheWrite(record, expected)) return { kind: 'differs', record, differences };
      last = { record, differences };
    }
    const left = deadline - performance.now();
    if (left <= 0) {
      auth.loaders.clearObject(objectName, id);
      return { kind: 'not_shown', record: last?.record ?? null, differences: last?.differences ?? [] };
    }
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
  }
}

/**
 * Whether `record` (which differs from what was sent) is a version after the write: the object is new, the
 * write changed nothing to wait for, any field differs from the version read before the write, or (an update,
 * not read before) a field its answer says it changed shows the value sent.
 */
function showsTheWrite(record: UpstreamRecord, expected: ReadBackExpectation): boolean {
  const { sent, before, compare } = expected;
  if (before === null || expected.nothingChanged === true) return true;
  if (before !== undefined) {
    // Any field other than it was before (sent or not: a replacing save drops the others) is a later version.
    const fields = new Set([...Object.keys(before), ...Object.keys(record)]);
    fields.delete('_id');
    return [...fields].some((field) => !sameStoredValue(fieldOf(before, field), fieldOf(record, field)));
  }
  return Object.keys(sent).some(
    (field) =>
      field !== '_id' &&
      (expected.changed?.includes(field) ?? false) &&
      sameStoredValue(sent[field], fieldOf(record, field), compare),
  );
}

function fieldOf(record: Readonly<Record<string, unknown>>, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
}
