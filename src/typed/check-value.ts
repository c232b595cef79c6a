/**
 * Checks an upstream value against a typed field's declared GraphQL type. Stricter than GraphQL's own
 * result coercion on purpose: `"12"` is not an `Int` and `12` is not a `String`, because a front-end that
 * trusts the declared type must not receive a silently converted value.
 */
import { DateTimeResolver } from 'graphql-scalars';
import { isExactNumber, type ExactNumber } from '../upstream/dialect/exact-json.ts';
import type { TypeRef } from './spec/object-type-spec.ts';
import { longText } from './long-scalar.ts';

/** Whether the `DateTime` scalar can serve `text` (an RFC 3339 date-time with a time zone). */
function isDateTime(text: string): boolean {
  try {
    DateTimeResolver.serialize(text);
    return true;
  } catch {
    return false;
  }
}

/** The value to serve, or a description of what was received instead. */
export type CheckedValue = { ok: true; value: unknown } | { ok: false; received: string };

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

const cut = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** `the string "abc"`, `the number 2.5`, `an object`: what a value is, for messages (strings cut at 40). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (isExactNumber(value)) return `the number ${cut(value.rawJSON)}`;
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(cut(value))}`;
    case 'number':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * A number kept with its digits (`exact-json.ts`: a double would change it) where the schema declares
 * another type: only `JSON` serves it as it is, `Long` and `ID` as its digits when it is a whole number;
 * `Int` and `Float` refuse it rather than round it.
 */
function checkExact(value: ExactNumber, name: string): CheckedValue {
  const received = describeValue(value);
  switch (name) {
    case 'ID':
    case 'Long': {
      const digits = longText(value);
      if (digits !== undefined) return { ok: true, value: digits };
      return { ok: false, received: name === 'Long' ? `${received} (not a 64-bit whole number)` : received };
    }
    case 'Int':
    case 'Float':
      return {
        ok: false,
        received: `${received}, which ${name === 'Int' ? 'an Int' : 'a Float (a double)'} cannot hold exactly`,
      };
    case 'String':
    case 'Boolean':
    case 'DateTime':
    case 'JSONObject':
      return { ok: false, received };
    default:
      return { ok: true, value };
  }
}

function checkScalar(value: unknown, name: string): CheckedValue {
  if (isExactNumber(value)) return checkExact(value, name);
  const ok = (served: unknown): CheckedValue => ({ ok: true, value: served });
  // Described only when refused: a typed page checks every value of every record, and describing a string
  // (quoted, cut) for each one that passes was most of the check's cost.
  const refused = (): { ok: false; received: string } => ({ ok: false, received: describeValue(value) });
  switch (name) {
    case 'ID':
      if (typeof value === 'string') return ok(value);
      return typeof value === 'number' && Number.isSafeInteger(value) ? ok(String(value)) : refused();
    case 'Long': {
      // Served as its digits, a string: a JSON number past 2^53 is rounded by every JavaScript client.
      const digits = typeof value === 'number' ? longText(value) : undefined;
      return digits === undefined ? refused() : ok(digits);
    }
    case 'String':
      return typeof value === 'string' ? ok(value) : refused();
    case 'Int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return refused();
      return value >= INT_MIN && value <= INT_MAX
        ? ok(value)
        : { ok: false, received: `${refused().received} (beyond a 32-bit Int)` };
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? ok(value) : refused();
    case 'Boolean':
      return typeof value === 'boolean' ? ok(value) : refused();
    case 'DateTime':
      // RFC 3339 with a time zone, as the `DateTime` scalar serves it (normalised to UTC).
      return typeof value === 'string' && isDateTime(value) ? ok(value) : refused();
    case 'JSONObject':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? ok(value) : refused();
    default:
      // JSON: any value the upstream can send.
      return ok(value);
  }
}

/** Checks `value` against `type`; a missing value is `null`, an error where the type is non-null. */
export function checkValue(value: unknown, type: TypeRef): CheckedValue {
  if (value === null || value === undefined) {
    return type.nonNull ? { ok: false, received: describeValue(value) } : { ok: true, value: null };
  }
  if (type.kind === 'scalar') return checkScalar(value, type.name);
  if (!Array.isArray(value)) return { ok: false, received: describeValue(value) };
  const items: unknown[] = [];
  for (const [index, item] of (value as unknown[]).entries()) {
    const checked = checkValue(item, type.of);
    if (!checked.ok) return { ok: false, received: `an array holding ${checked.received} at index ${index}` };
    items.push(checked.value);
  }
  return { ok: true, value: items };
}
