/** The criteria of a read as the upstream reads them, and as everything that shares reads keys them. */
import type { Criterion, FilterCommand } from './wire.ts';

/**
 * The `filterCommand` text of `criteria`: each criterion's three fields in a fixed order, whatever order
 * its object was built in, so equal criteria give equal text. That makes it the criteria's key as well:
 * coalescing and the loaders' caches key reads on it, so two reads are shared exactly when they would send
 * the same filter.
 */
export function toFilterCommand(criteria: readonly Criterion[]): string {
  const command: FilterCommand = {
    criteria: criteria.map(({ fieldName, operator, value }) => ({ fieldName, operator, value })),
  };
  return JSON.stringify(command);
}
