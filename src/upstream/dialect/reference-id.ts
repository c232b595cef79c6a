/**
 * The id a reference field holds, in each form an upstream stores it: text, a whole number, or MongoDB's
 * extended JSON `{"$oid": "…"}` (a Java/Spring entity's `ObjectId`, as its JSON shows it). The generic `ref`
 * and the typed `@ref` both read through it, so neither answers `null` for a reference the other follows.
 */
import { isExactNumber } from './exact-json.ts';

/** The reference's id; `undefined` when `value` is none of those forms (empty text included). */
export function referenceIdOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isExactNumber(value))
    return undefined;
  const keys = Object.keys(value);
  const oid = keys.length === 1 && keys[0] === '$oid' ? (value as { $oid: unknown }).$oid : undefined;
  return typeof oid === 'string' && oid !== '' ? oid : undefined;
}
