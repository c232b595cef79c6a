/**
 * Planning the upstream calls of one batch of ids in `regex` mode: which ids travel together in one
 * `getAll` alternation, and which are read alone.
 */
import { escapeJavaRegex } from './regex-escape.ts';

/** Limits of {@link planIdBatches}. */
export interface BatchPlanLimits {
  /** Ids per `getAll` at most. */
  maxBatchSize: number;
  /** Characters of the alternation per `getAll` at most (it travels in the URL). */
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
   * to read as "no filter") and ids whose pattern alone is longer than `maxCriterionLength`. Reading them
   * alone means an upstream that rejects them fails only their own keys.
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
  for (const id of new Set(ids)) {
    const pattern = escapeJavaRegex(id);
    if (id === '' || pattern.length > limits.maxCriterionLength) {
      singles.push({ id, pattern });
      continue;
    }
    const fits =
      current !== undefined &&
      current.ids.length < maxBatchSize &&
      current.pattern.length + 1 + pattern.length <= limits.maxCriterionLength;
    if (current !== undefined && fits) {
      current.ids.push(id);
      current.pattern += `|${pattern}`;
    } else {
      current = { ids: [id], pattern };
      batches.push(current);
    }
  }
  return { batches, singles };
}
