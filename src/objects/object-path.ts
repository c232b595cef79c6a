import { isExactNumber } from '../upstream/dialect/exact-json.ts';

/** Reads the value at a dotted path (`customer.id`) of a record; `undefined` when any step is missing. */
export function getPath(record: unknown, path: string): unknown {
  return getPathAt(record, pathKeys(path));
}

/** The keys of a dotted path, for {@link getPathAt}: split once where the path is known ahead (a typed field). */
export function pathKeys(path: string): readonly string[] {
  return path.split('.');
}

/** {@link getPath} with the path already split by {@link pathKeys}. */
export function getPathAt(record: unknown, keys: readonly string[]): unknown {
  let current: unknown = record;
  for (const key of keys) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    // A number kept with its digits is a value, not an object to walk into.
    if (isExactNumber(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
