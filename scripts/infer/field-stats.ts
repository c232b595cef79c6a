/**
 * What sampled records show about each field: walks every record (the upstream answers JSON, read by the gateway's client: a number a double
 * would change is kept with its digits) into
 * its leaves, nested objects flattened to dotted paths, and counts for each path how often it was present
 * and which kinds of value it held. Pure: `infer-fields.ts` turns the counts into GraphQL fields.
 */
import { longText } from '../../src/typed/long-scalar.ts';
import { isExactNumber } from '../../src/upstream/dialect/exact-json.ts';

/**
 * The kind of one value, as GraphQL types tell them apart. Numbers: `int` (32 bits), `wide` (whole, beyond
 * 32 bits, exact in a double), `float` (a fraction), `long` (whole, past 2^53: only `Long` holds it) and
 * `exact` (any other number a double would change, a `BigDecimal`'s digits: only `JSON` keeps it).
 */
export type ValueKind =
  'string' | 'int' | 'wide' | 'float' | 'long' | 'exact' | 'boolean' | 'object' | 'list' | 'mixedList';

/** What the records held at one path. */
export interface FieldStats {
  /** The record path, segments joined by `.` (`customer.id`). */
  path: string;
  segments: readonly string[];
  /** Records where the value was there and not `null`. */
  present: number;
  /** How many values of each kind. */
  kinds: Partial<Record<ValueKind, number>>;
  /** For a list: the kinds of its elements. */
  elementKinds: Partial<Record<ValueKind, number>>;
  /** Distinct string values (at most {@link MAX_DISTINCT}); `distinctOverflow` once there were more. */
  distinct: Set<string>;
  distinctOverflow: boolean;
}

/** Distinct values remembered per path: enough for a batched id lookup and a uniqueness check. */
export const MAX_DISTINCT = 1000;
/** Nesting followed before a nested object is typed `JSONObject` as a whole. */
const MAX_NESTING = 4;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isExactNumber(value);

function kindOf(value: unknown): ValueKind | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  // GraphQL's Int is 32-bit: larger whole numbers are Float, which holds them exactly up to 2^53.
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'float';
    return Math.abs(value) <= 2 ** 31 - 1 ? 'int' : 'wide';
  }
  // A number the upstream client kept with its digits (a double would change it): a Java `long` is `Long`.
  if (isExactNumber(value)) return longText(value) === undefined ? 'exact' : 'long';
  if (Array.isArray(value)) return 'list';
  if (isPlainObject(value)) return 'object';
  return undefined;
}

/**
 * Counts the fields of `records` (their `_id` left out: it is the type's `id`). A path that holds an
 * object in some records and something else in others is one field (`JSON`), not also its nested paths,
 * which would overlap it.
 */
export function collectFieldStats(records: readonly Record<string, unknown>[]): FieldStats[] {
  const leaves = new Set<string>();
  for (;;) {
    const stats = collectOnce(records, leaves);
    const conflicts = stats.filter((s) => stats.some((o) => o.path.startsWith(`${s.path}.`)));
    if (conflicts.length === 0) return stats;
    for (const c of conflicts) leaves.add(c.path);
  }
}

function collectOnce(records: readonly Record<string, unknown>[], leaves: ReadonlySet<string>): FieldStats[] {
  const byPath = new Map<string, FieldStats>();
  const statsAt = (segments: readonly string[]): FieldStats => {
    const path = segments.join('.');
    let stats = byPath.get(path);
    if (stats === undefined) {
      stats = {
        path,
        segments,
        present: 0,
        kinds: {},
        elementKinds: {},
        distinct: new Set(),
        distinctOverflow: false,
      };
      byPath.set(path, stats);
    }
    return stats;
  };
  const visit = (value: unknown, segments: readonly string[]): void => {
    // A dotted record path cannot name a blank key or one holding a dot: such values stay out of the type.
    if (segments.some((segment) => segment.trim() === '' || segment.includes('.'))) return;
    const nested = segments.length < MAX_NESTING && !leaves.has(segments.join('.'));
    if (isPlainObject(value) && Object.keys(value).length > 0 && nested) {
      for (const [key, child] of Object.entries(value)) visit(child, [...segments, key]);
      return;
    }
    const kind = kindOf(value);
    if (kind === undefined) return; // null or undefined: not present
    const stats = statsAt(segments);
    stats.present += 1;
    stats.kinds[kind] = (stats.kinds[kind] ?? 0) + 1;
    if (Array.isArray(value)) {
      for (const element of value) {
        const elementKind = kindOf(element);
        if (elementKind !== undefined)
          stats.elementKinds[elementKind] = (stats.elementKinds[elementKind] ?? 0) + 1;
      }
    }
    if (typeof value === 'string') {
      if (stats.distinct.size < MAX_DISTINCT) stats.distinct.add(value);
      else if (!stats.distinct.has(value)) stats.distinctOverflow = true;
    }
  };
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) if (key !== '_id') visit(value, [key]);
  }
  return [...byPath.values()];
}
