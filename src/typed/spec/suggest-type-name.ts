/**
 * A GraphQL type name for an upstream object name whose last part another type of the folder already
 * has: two upstream types may share a simple name (`com.corp.Order` beside the demo's `com.example.Order`),
 * but one schema cannot hold two types `Order`. Used by the start-up check's fix and by `objects:infer`.
 */

const capitalized = (part: string): string => part.charAt(0).toUpperCase() + part.slice(1);

/** A part of an object name as a name fragment: letters, digits and `_` only. */
const cleaned = (part: string): string => part.replace(/[^_A-Za-z0-9]/g, '');

/**
 * The first name not in `taken` made of the object name's parts from the right (`com.corp.Order` →
 * `CorpOrder`, then `ComCorpOrder`), then with a number (`CorpOrder2`).
 */
export function suggestTypeName(objectName: string, taken: ReadonlySet<string>): string {
  const parts = objectName
    .split('.')
    .map(cleaned)
    .filter((part) => part !== '');
  const joined = (from: number) => {
    const name = parts.slice(from).map(capitalized).join('');
    return /^[_A-Za-z]/.test(name) ? name : `T${name}`;
  };
  // From the last two parts up: the last alone is the name already taken.
  for (let from = parts.length - 2; from >= 0; from--) if (!taken.has(joined(from))) return joined(from);
  const base = joined(0);
  for (let n = 2; ; n++) if (!taken.has(`${base}${String(n)}`)) return `${base}${String(n)}`;
}
