/**
 * Reading getAll's `totalCount` in the forms real upstreams write it (docs/upstream-contract.md, "Assumptions",
 * `total_count`): a number, a numeric string (a Java service that writes every value as text), or nothing at
 * all beside an empty `data` (one that leaves out what it has no count for). Anything else is a dialect the
 * gateway cannot read: `UPSTREAM_DIALECT_MISMATCH` naming the field, never `bad_response`, because the
 * upstream answers the same way every time and its health is not in question.
 */
import { dialectMismatch } from './assumptions.ts';
import type { UpstreamError } from '../../errors/upstream-error.ts';

/** A whole, non-negative number written as text, `.0` tolerated (`Double.toString` of a count). */
const COUNT_TEXT = /^\d{1,16}(?:\.0+)?$/;

/**
 * The count `answer.totalCount` holds (an own property only), beside `dataLength` records.
 *
 * @throws UpstreamError `dialect_mismatch` (`total_count`) for a missing count beside records, a negative,
 *   fractional or unsafe number, or any other form
 */
export function readTotalCount(
  operation: string,
  answer: Readonly<Record<string, unknown>>,
  dataLength: number,
): number {
  // Own keys only: a decoded `{"__proto__": {"totalCount": …}}` must not lend a count.
  const value = Object.hasOwn(answer, 'totalCount') ? answer.totalCount : undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (value === undefined && dataLength === 0) return 0;
  if (typeof value === 'string' && COUNT_TEXT.test(value)) {
    const count = Number(value);
    if (Number.isSafeInteger(count)) return count;
  }
  if (typeof value === 'bigint' && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) {
    return Number(value);
  }
  throw totalCountMismatch(operation, value, dataLength);
}

function totalCountMismatch(operation: string, value: unknown, dataLength: number): UpstreamError {
  return dialectMismatch(
    operation,
    'total_count',
    `the answer's totalCount is ${describe(value, dataLength)}; the gateway reads a whole number ` +
      '(or numeric text), absent only beside an empty data',
  );
}

/** What came instead of a count, without quoting it: an upstream's value is not ours to log. */
function describe(value: unknown, dataLength: number): string {
  if (value === undefined) return `missing beside ${dataLength} record${dataLength === 1 ? '' : 's'}`;
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'not a finite number';
    if (value < 0) return 'negative';
    if (!Number.isInteger(value)) return 'not a whole number';
    return 'beyond 2^53';
  }
  if (typeof value === 'string') return 'text that is not a whole non-negative number';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
