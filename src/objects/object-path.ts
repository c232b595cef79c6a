import { isExactNumber } from '../upstream/dialect/exact-json.ts';

/** Reads the value at a dotted path (`customer.id`) of a record; `undefined` when any step is missing. */
export function getPath(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    // A number kept with its digits is a value, not an object to walk into.
    if (isExactNumber(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
