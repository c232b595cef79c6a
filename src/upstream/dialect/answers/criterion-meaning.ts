/**
 * What a criterion means, as the caller wrote it, beside the `matches` pattern it was compiled to: the
 * gateway cannot know how a given upstream reads a pattern (anchored or found, one criterion per field or
 * all of them, its own wrapping), but it knows what it asked. So every filtered read's records are held to
 * the caller's own condition (`verify-filter-answer.ts`), whatever the upstream did with the pattern.
 *
 * Built once per condition when the filter is compiled (`src/filters/condition-meaning.ts`), so the check
 * of each record is a predicate call, never a parse.
 */

/** The caller's condition behind one criterion. */
export interface CriterionMeaning {
  /** The operator the caller wrote (`equals`, `in`, `contains`, …, `matches`), for messages. */
  readonly operator: string;
  /** The texts of a literal operator (one, or the `in` list), for naming what the upstream seems to do. */
  readonly literals: readonly string[];
  /** Whether letters compare in any case (`caseInsensitive`). */
  readonly caseInsensitive: boolean;
  /**
   * Whether the value a record holds at the criterion's field (`undefined`: the record lacks it) satisfies
   * the condition. A value whose text the gateway cannot know (a number read as a double, an object) is
   * judged by what it can tell, and accepted when nothing tells against it.
   */
  test(held: unknown): boolean;
}
