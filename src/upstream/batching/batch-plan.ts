/**
 * Planning the upstream calls of one batch of ids in `regex` mode: which ids travel together in one
 * `getAll` alternation, and which are read alone.
 */
import { escapeJavaRegex } from '../pattern-guard/regex-escape.ts';

/** Limits of {@link planIdBatches}. */
export interface BatchPlanLimits {
  /** Ids per `getAll` at most. */
  maxBatchSize: number;
  /**
   * Bytes of the alternation per `getAll` at most, as it travels in the URL: inside the JSON filter
   * command, percent-encoded (a backslash there costs six bytes, `%5C%5C`).
   */
  maxCriterionLength: number;
}

/** One `getAll` call: its ids and the alternation that matches exactly them. */
export interface IdBatch {
  ids: string[];
  pattern: string;
}

/** What {@link planIdBatches} decided. */
export interface BatchPlan {
  /** Each becomes one `getAll` with `_id matches pattern`. */
  batches: IdBatch[];
  /**
   * Ids read alone with `getObject`: the empty id (an empty alternative is legal but easy for an upstream
   * to read as "no filter"; the loaders refuse it before planning) and ids whose pattern alone is longer
   * than `maxCriterionLength`. Reading them alone means an upstream that rejects them fails only their
   * own keys.
   */
  singles: { id: string; pattern: string }[];
}

/**
 * Splits distinct `ids` into alternations that respect both limits, keeping the order of `ids`.
 * Duplicates are dropped.
 */
export function planIdBatches(ids: readonly string[], limits: BatchPlanLimits): BatchPlan {
  const maxBatchSize = Math.max(1, Math.floor(limits.maxBatchSize));
  const batches: IdBatch[] = [];
  const singles: BatchPlan['singles'] = [];
  let current: IdBatch | undefined;
  let currentBytes = 0;
  for (const id of ids.length === 1 ? ids : new Set(ids)) {
    const pattern = idPattern(id);
    const bytes = urlBytes(pattern);
    if (!fitsOneCall(id, bytes, limits)) {
      singles.push({ id, pattern });
      continue;
    }
    const fits =
      current !== undefined &&
      current.ids.length < maxBatchSize &&
      currentBytes + SEPARATOR_BYTES + bytes + GROUP_BYTES <= limits.maxCriterionLength;
    if (current !== undefined && fits) {
      current.ids.push(id);
      current.pattern += `|${pattern}`;
      currentBytes += SEPARATOR_BYTES + bytes;
    } else {
      current = { ids: [id], pattern };
      currentBytes = bytes;
      batches.push(current);
    }
  }
  // Grouped: an upstream that wraps the value (`"^" + value + "$"`) would otherwise anchor only the first and
  // the last id, and answer records whose ids merely start or end with them.
  for (const batch of batches) if (batch.ids.length > 1) batch.pattern = `(?:${batch.pattern})`;
  return { batches, singles };
}

/** `|` in the URL: `%7C`. */
const SEPARATOR_BYTES = 3;

/** `(?:` and `)` in the URL: `(%3F%3A` and `)`. */
const GROUP_BYTES = 8;

/**
 * Letters, digits and `_`: what `escapeJavaRegex` leaves as it is, what JSON leaves unescaped and what
 * `encodeURIComponent` leaves unencoded. Most ids are made of these alone: their pattern is the id itself
 * and costs its length in the URL, with no string built to find that out.
 */
const PLAIN = /^[A-Za-z0-9_]+$/;

/** The alternative that matches exactly `id` (`escapeJavaRegex`). */
export function idPattern(id: string): string {
  return PLAIN.test(id) ? id : escapeJavaRegex(id);
}

/** Whether `id`, whose pattern costs `bytes`, can go in a `getAll` alternation, rather than be read alone. */
function fitsOneCall(id: string, bytes: number, limits: BatchPlanLimits): boolean {
  return id !== '' && bytes <= limits.maxCriterionLength;
}

/**
 * The plan of one id alone, without building one: whether a one-id batch of {@link planIdBatches} would read
 * `id` with `getAll` (`true`) or as a single (`false`), for the pattern {@link idPattern} gave.
 */
export function readsInBatch(id: string, pattern: string, limits: BatchPlanLimits): boolean {
  return fitsOneCall(id, urlBytes(pattern), limits);
}

/** What `pattern` costs in the request URL: a JSON string, percent-encoded, without its two quotes. */
function urlBytes(pattern: string): number {
  if (PLAIN.test(pattern)) return pattern.length;
  return encodeURIComponent(JSON.stringify(pattern)).length - 6;
}
