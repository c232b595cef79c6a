/** The one key of a read's criteria, for everything that shares or caches reads. */
import type { Criterion } from '../client/wire.ts';

/**
 * `criteria` as a key: each criterion's three fields as a tuple in a fixed order, whatever order its
 * object was built in, so equal criteria give equal keys. Meant to go into the `JSON.stringify` of the
 * whole key (coalescing, the loaders' page and find caches): V8's fast path for arrays of strings makes
 * that cheaper than any string built here first.
 */
export function criteriaKey(criteria: readonly Criterion[]): [string, string, string][] {
  return criteria.map((c) => [c.fieldName, c.operator, c.value]);
}
