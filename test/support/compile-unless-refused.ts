/**
 * `condition` compiled as the `filter` argument of the generic API for `matchesMode`, or `undefined` where the
 * compiler refuses it before sending (a {@link FilterError}): the differential filter tests skip those, as every
 * dialect refuses them alike.
 */
import type { FilterCondition } from '../../src/filters/compile-criteria.ts';
import { FilterError } from '../../src/errors/filter-error.ts';
import type { Criterion, MatchesMode } from '../../src/upstream/client/types.ts';
import { compileFilter } from './filter-sides.ts';

export async function compileUnlessRefused(
  condition: Omit<FilterCondition, 'at'>,
  matchesMode: MatchesMode,
): Promise<Criterion[] | undefined> {
  try {
    return await compileFilter(condition, matchesMode);
  } catch (error) {
    if (error instanceof FilterError) return undefined;
    throw error;
  }
}
