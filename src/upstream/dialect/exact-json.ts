/**
 * Parsing upstream answers without rounding a number. A Java upstream stores `long`s and `BigDecimal`s; a
 * plain `JSON.parse` turns 9007199254740993 into 9007199254740992 and `data` showed the wrong digits, and a
 * filter by the shown value found nothing.
 *
 * The parser is the language's own: `JSON.parse` with source text access and `JSON.rawJSON` (TC39's "JSON.parse
 * source text access", on by default since V8 11.4, so in every Node.js the package supports: 22.15 ships
 * V8 12.4). A number whose text a double would change (`number-loss.ts`: more digits than a double keeps, an
 * overflow, an underflow) is kept as a raw JSON value holding that text, which `JSON.stringify` writes back
 * digit for digit: in the GraphQL response (Apollo serialises with it), and in a save or update sent back
 * upstream. Every other number stays a plain JavaScript number, so `1.50` is still `1.5` and nothing else
 * changes for the code that reads records.
 *
 * A reviver makes `JSON.parse` about 6 times slower, so it runs only when one regular expression finds a
 * token that could change (`mightLoseNumber`); a typical page holds none and pays for the scan only, about a
 * quarter of the parse (docs/design.md has the numbers). `JSON.parse`'s reviver recurses: a text nested about
 * 2,000 deep that also holds such a token cannot be revived and is refused (a `RangeError`), never read
 * rounded.
 */
import { mightLoseNumber, numberLoss } from './number-loss.ts';

/** A number kept with its exact text: a frozen, prototype-less `{ rawJSON }` that `JSON.stringify` writes as is. */
export interface ExactNumber {
  readonly rawJSON: string;
}

declare global {
  // TypeScript's ES2024 library does not declare the proposal's functions yet.
  interface JSON {
    rawJSON(text: string): ExactNumber;
    isRawJSON(value: unknown): value is ExactNumber;
  }
}

/** What `JSON.parse` tells a reviver about a primitive value: the text it was written as. */
interface ReviverContext {
  source?: string;
}

function keepExact(_key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== 'number') return value;
  const source = context?.source;
  // `String(value) === source` is the common case (`3`, `2.5`) and spares the digits comparison.
  if (source === undefined || String(value) === source || numberLoss(source) === undefined) return value;
  return JSON.rawJSON(source);
}

/**
 * `JSON.parse`, except that a number a double would change is an {@link ExactNumber} holding its text.
 *
 * @throws SyntaxError as `JSON.parse` does; RangeError for a text nested too deep to revive
 */
export function parseExactJson(text: string): unknown {
  return mightLoseNumber(text) ? JSON.parse(text, keepExact) : JSON.parse(text);
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** A whole number as JSON writes it (no `+`, no leading zeros, no point, no exponent), at most 19 digits. */
const WHOLE = /^-?(?:0|[1-9]\d{0,18})$/;

/**
 * Whether `literal` is a whole number a Java `long` holds, as JSON writes it: what a Java upstream keeps with
 * every digit (the `exact_numbers` assumption), where a fraction becomes a `double`.
 */
export function isLongLiteral(literal: string): boolean {
  if (!WHOLE.test(literal)) return false;
  const value = BigInt(literal);
  return value >= LONG_MIN && value <= LONG_MAX;
}

/** Whether `value` is a number kept with its exact text (see {@link parseExactJson}). */
export function isExactNumber(value: unknown): value is ExactNumber {
  return JSON.isRawJSON(value);
}

/** The JSON text of a number as the gateway holds it (`String(3)`, or an exact number's own text). */
export function numberText(value: number | ExactNumber): string {
  return typeof value === 'number' ? String(value) : value.rawJSON;
}

/**
 * A deep copy of a JSON value that keeps its exact numbers (`structuredClone` throws a `DataCloneError` on
 * them). They are immutable, so they are shared, not copied.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null || isExactNumber(value)) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => copyJson(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // Defined, not assigned: an own `__proto__` key stays a key.
    Object.defineProperty(copy, key, {
      value: copyJson(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy as T;
}
