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
  for (const id of new Set(ids)) {
    const pattern = escapeJavaRegex(id);
    const bytes = urlBytes(pattern);
    if (id === '' || bytes > limits.maxCriterionLength) {
      singles.push({ id, pattern });
      continue;
    }
    const fits =
      current !== undefined &&
      current.ids.length < maxBatchSize &&
      currentBytes + SEPARATOR_BYTES + bytes <= limits.maxCriterionLength;
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
  return { batches, singles };
}

/** `|` in the URL: `%7C`. */
const SEPARATOR_BYTES = 3;

/** What `pattern` costs in the request URL: a JSON string, percent-encoded, without its two quotes. */
function urlBytes(pattern: string): number {
  return encodeURIComponent(JSON.stringify(pattern)).length - 6;
}
