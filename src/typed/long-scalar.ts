/**
 * `Long`: a 64-bit whole number (a Java `long`), served as a string of its exact digits. A typed field holding
 * numbers past 2^53 cannot be `Int` (32 bits) or `Float` (a double rounds 9007199254740993 to …992), and a
 * JSON number that large is rounded by every JavaScript client's `JSON.parse` (Apollo Client, Relay) before
 * the front-end sees it. So the value travels as text, always (`"42"` too: one type on the wire), as GitHub's
 * `BigInt` and Shopify's `UnsignedInt64` do. graphql-scalars' `Long` answers a number below 2^53 and a string
 * above it (or a `BigInt` that needs a global `toJSON` patch), which no client type can describe.
 *
 * Input takes the digits as a string (`"9007199254740993"`) or an `Int`-sized literal; the upstream gets a
 * JSON number with exactly those digits (an `ExactNumber` past 2^53, `exact-json.ts`), so a filter by the
 * value matches and a read after a write answers the same digits.
 */
import { GraphQLScalarType, Kind } from 'graphql';
import { isExactNumber, isLongLiteral, type ExactNumber } from '../upstream/dialect/exact-json.ts';

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** `text` when it is the digits of a 64-bit whole number, else `undefined`. */
function checkedDigits(text: string): string | undefined {
  return isLongLiteral(text) ? text : undefined;
}

/**
 * The digits of a 64-bit whole number, from a number (any double that is one: each is exact) or a number
 * kept with its digits; `undefined` for anything else (a fraction, beyond 64 bits, `1.5E3` spellings).
 */
export function longText(value: number | ExactNumber): string | undefined {
  if (typeof value !== 'number') return checkedDigits(value.rawJSON);
  if (!Number.isInteger(value)) return undefined;
  const whole = BigInt(value);
  return whole >= LONG_MIN && whole <= LONG_MAX ? whole.toString() : undefined;
}

/** An input's digits as the upstream stores them: a plain number when a double holds it, else exact. */
function parseDigits(text: string): number | ExactNumber {
  const digits = checkedDigits(text);
  if (digits === undefined) {
    throw new TypeError(
      `Long takes the digits of a 64-bit whole number as a string ("9007199254740993"), not ${JSON.stringify(text.slice(0, 40))}.`,
    );
  }
  const number = Number(digits);
  return Number.isSafeInteger(number) ? number : JSON.rawJSON(digits);
}

/** The `Long` scalar (see the file's comment). Errors are `TypeError`s: graphql-js words them into its own. */
export const LongScalar = new GraphQLScalarType<number | ExactNumber, string>({
  name: 'Long',
  description:
    'A 64-bit whole number (a Java `long`), written as a string of its exact digits (`"9007199254740993"`): ' +
    'a JSON number past 2^53 would be rounded by JavaScript clients. Input: that string, or an `Int` literal.',
  serialize(value) {
    // The typed field's check already made the digits; a number or an exact number is served the same way.
    const digits =
      typeof value === 'string'
        ? checkedDigits(value)
        : typeof value === 'number' || isExactNumber(value)
          ? longText(value)
          : undefined;
    if (digits === undefined)
      throw new TypeError('Long cannot serve a value that is no 64-bit whole number.');
    return digits;
  },
  parseValue(value) {
    if (typeof value === 'string') return parseDigits(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    // A JSON number past 2^53 in the variables, kept with its digits by the body parser.
    if (isExactNumber(value) && isLongLiteral(value.rawJSON)) return value;
    throw new TypeError(
      'Long takes the digits of a 64-bit whole number as a string ("9007199254740993"), or a whole number below 2^53.',
    );
  },
  parseLiteral(node) {
    if (node.kind === Kind.STRING || node.kind === Kind.INT) return parseDigits(node.value);
    throw new TypeError('Long takes a string of digits ("9007199254740993") or a whole number literal.');
  },
});
