/**
 * Every record a filtered read answers is held to the caller's own filter, by meaning (`CriterionMeaning`),
 * before anyone sees it: the gateway cannot name every way an upstream may read a pattern (found in part of
 * the value, wrapped as `"^"+value+"$"` so that `a|b` escapes its anchors, one criterion per field kept),
 * but it knows what it asked. A record that does not fit is `UPSTREAM_DIALECT_MISMATCH` (`filter_answer`)
 * naming the criterion and what the upstream seems to do, never served. The upstream answered, healthily:
 * never ill health, so the breaker does not count it.
 *
 * Cost: one predicate call per criterion and record, the predicates built once per request; only a failure
 * pays for the diagnosis.
 */
import { dialectMismatch } from '../assumptions.ts';
import type { UpstreamError } from '../../../errors/upstream-error.ts';
import type { Criterion, UpstreamRecord } from '../../client/types.ts';
import type { CriterionMeaning } from './criterion-meaning.ts';

/** The value at a field path (already split) of a record, or `undefined` when the record lacks it. */
export function valueAtPath(record: UpstreamRecord, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

interface Judged {
  index: number;
  fieldName: string;
  path: readonly string[];
  meaning: CriterionMeaning;
}

const folded = (text: string): string => text.toLowerCase();

/** What the upstream seems to do, read from one record that fails criterion `failed`. */
function seemsTo(judged: readonly Judged[], failed: Judged, record: UpstreamRecord, held: unknown): string {
  if (held === undefined) return 'it answered a record that does not hold this field';
  const sameField = judged.filter((j) => j.fieldName === failed.fieldName);
  const last = sameField.at(-1);
  if (sameField.length > 1 && last?.meaning.test(valueAtPath(record, last.path)) === true)
    return 'it seems to keep only the last criterion on this field';
  const { literals, caseInsensitive } = failed.meaning;
  if (typeof held === 'string' && literals.length > 0) {
    if (!caseInsensitive && literals.some((l) => folded(l) === folded(held)))
      return 'it seems to compare letters in any case';
    const text = caseInsensitive ? folded(held) : held;
    if (literals.some((l) => l !== '' && text.includes(caseInsensitive ? folded(l) : l)))
      return 'it seems to match part of the value (a pattern found, or wrapped so that an alternation escapes its anchors)';
  }
  return 'it answered a record that does not satisfy it';
}

/** The mismatch of a record failing `failed`. */
function filterMismatch(operation: string, failed: Judged, why: string): UpstreamError {
  return dialectMismatch(
    operation,
    'filter_answer',
    `a record answered for criterion ${failed.index + 1} (${failed.fieldName} ${failed.meaning.operator}) ` +
      `does not satisfy it: ${why}`,
    undefined,
    undefined,
    undefined,
    { fieldName: failed.fieldName, operator: failed.meaning.operator },
  );
}

/**
 * Throws `UPSTREAM_DIALECT_MISMATCH` (`filter_answer`) for the first record of `records` that does not
 * satisfy every criterion of `criteria` that carries a meaning (those the gateway compiled from a caller's
 * filter); criteria without one (a read by id) are checked where they are built.
 */
export function verifyFilterAnswer(
  operation: string,
  criteria: readonly Criterion[],
  records: readonly UpstreamRecord[],
): void {
  if (records.length === 0) return;
  let judged: Judged[] | undefined;
  criteria.forEach((criterion, index) => {
    const { meaning, fieldName } = criterion;
    if (meaning !== undefined)
      (judged ??= []).push({ index, fieldName, path: fieldName.split('.'), meaning });
  });
  if (judged === undefined) return;
  for (const record of records) {
    for (const j of judged) {
      const held = valueAtPath(record, j.path);
      if (!j.meaning.test(held)) throw filterMismatch(operation, j, seemsTo(judged, j, record, held));
    }
  }
}

/**
 * Throws `filter_answer` when a page holds one `_id` twice: an upstream serving overlapping pages or joining
 * rows would show one object at two cursors, and hide another. A set of the page's ids, once per page.
 */
export function verifyDistinctIds(operation: string, records: readonly UpstreamRecord[]): void {
  if (records.length < 2) return;
  const seen = new Set<string>();
  for (const { _id } of records) {
    if (seen.has(_id)) {
      throw dialectMismatch(
        operation,
        'filter_answer',
        'a page answered the same record twice: it answered a record at two offsets of one page',
      );
    }
    seen.add(_id);
  }
}

/**
 * The mismatch of a read by id answered with a record whose `_id` is none of those asked: never served as
 * the object asked for, and a sign the upstream does not read the `_id` criterion as sent.
 */
export function unaskedRecord(operation: string): UpstreamError {
  return dialectMismatch(
    operation,
    'filter_answer',
    'a read by id answered a record whose _id is none of those asked: it answered a record not asked for',
    undefined,
    undefined,
    undefined,
    { fieldName: '_id', operator: 'equals' },
  );
}
