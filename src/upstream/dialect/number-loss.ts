/**
 * Whether a number literal survives the trip through a double (JavaScript's number, and the upstream's JSON)
 * unchanged. Before this check, `1e-400` was stored as `0`, and `0.12345678901234567890123` as
 * `0.12345678901234568`, without a word, while `1e400` and 2^64 were refused.
 *
 * The rule: a literal is exact when its decimal digits are those of the double it becomes, written the
 * shortest way that reads back as that double (what `String(number)` writes). Both sides are normalized
 * first (sign, leading and trailing zeros, exponent), so `1.50`, `15e-1` and `0.0015e3` are all `1.5` and
 * exact, and `0.1` is exact although no double equals a tenth: the literal is what the double reads back as.
 * A number that becomes infinite overflows, a non-zero one that becomes 0 underflows, any other difference
 * loses digits.
 *
 * A literal longer than {@link MAX_NUMBER_LITERAL_LENGTH} characters is refused as `digits` without
 * reading it: see there why no number worth keeping is that long.
 *
 * It lives below every folder that needs it: the HTTP edge and the validation rule refuse a caller's changed
 * number, the upstream client keeps an upstream's exact (`exact-json.ts`).
 */

/** How a literal changes: beyond the largest double, below the smallest, or digits rounded off. */
export type NumberLoss = 'overflow' | 'underflow' | 'digits';

/**
 * The longest number literal judged (characters, sign and exponent included); any longer one is refused
 * as `digits`. A double's shortest form has at most 17 significant digits, so only zeros can make an
 * exact literal long: written out in full without an exponent, the longest double is 327 characters
 * (`-0.`, 307 zeros and 17 digits, near the smallest normal double; subnormals have fewer digits) and
 * the largest 310 (`-179769…`, 309 digits). Past 400, a literal has more significant digits than a double keeps, or
 * padding (zeros, an exponent's leading zeros) no serializer writes; even a double's exact expansion (up to
 * 767 significant digits) is refused by the digits rule anyway. The bound also keeps judging cheap: this
 * runs in the body parser, before authentication, on whatever an anonymous caller sends.
 */
export const MAX_NUMBER_LITERAL_LENGTH = 400;

/** A JSON or GraphQL number token (the grammars agree). */
const NUMBER = /^-?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** `'0'`. */
const ZERO = 48;

/** Significant digits `d1 d2 …` and exponent `e` of the value `0.d1d2… × 10^e`; `null` for zero. */
interface Decimal {
  digits: string;
  exponent: number;
}

/** Normalizes `integer.fraction × 10^exponent` (digit strings, no sign). */
function normalize(integer: string, fraction: string, exponent: number): Decimal | null {
  const all = integer + fraction;
  const first = all.search(/[1-9]/);
  if (first < 0) return null;
  // Trailing zeros found by a backwards loop: `/0+$/` retries at every zero of a run, quadratic in it.
  let end = all.length;
  while (all.charCodeAt(end - 1) === ZERO) end -= 1;
  return { digits: all.slice(first, end), exponent: integer.length - first + exponent };
}

/** The shortest decimal that reads back as `value` (finite, non-zero), normalized. */
function shortest(value: number): Decimal | null {
  // `toExponential()` without an argument writes as many digits as needed to tell the double apart.
  const [mantissa = '', power = '0'] = Math.abs(value).toExponential().split('e');
  const [integer = '', fraction = ''] = mantissa.split('.');
  return normalize(integer, fraction, Number(power));
}

/**
 * How `literal` (a JSON or GraphQL number token) changes as a double, or `undefined` when it does not.
 * Anything that is no number token is not this function's to judge: `undefined`.
 */
export function numberLoss(literal: string): NumberLoss | undefined {
  if (literal.length > MAX_NUMBER_LITERAL_LENGTH) return NUMBER.test(literal) ? 'digits' : undefined;
  const match = NUMBER.exec(literal);
  if (match === null) return undefined;
  const value = Number(literal);
  if (!Number.isFinite(value)) return 'overflow';
  const [, integer = '', fraction = '', power = '0'] = match;
  // An exponent too long for a number is only reached when the value is 0 or infinite (handled around it).
  const source = normalize(integer, fraction, Number(power));
  if (source === null) return undefined;
  if (value === 0) return 'underflow';
  const read = shortest(value);
  return read !== null && read.digits === source.digits && read.exponent === source.exponent
    ? undefined
    : 'digits';
}

/**
 * A token that may be a number a double changes: one with an exponent, or 16 characters of digits and
 * points (a double holds every decimal of 15 significant digits, and without an exponent 15 characters
 * cannot leave its range). It starts with a digit (after an optional minus) where a JSON value can (the
 * text's start, after `:`, `[`, `,` or whitespace) and ends where a JSON value can (before whitespace,
 * `,`, `]`, `}` or the end): runs in strings such as `"id 1234567890123456"` or `". . . ."` do not count.
 * Every number token of valid JSON is bounded so, hence the scanner never misses what this skips.
 */
const MIGHT_LOSE = /(?:^|[\s:[,])-?\d(?:[\d.]*[eE][+-]?\d+|[\d.]{15,})(?=[\s,\]}]|$)/;

/** Whether `text` (JSON) may hold a number a double would change: `false` means it holds none. */
export function mightLoseNumber(text: string): boolean {
  return MIGHT_LOSE.test(text);
}

/** At most 40 characters of a caller's literal, for a message. */
function quoted(literal: string): string {
  return literal.length <= 40 ? literal : `${literal.slice(0, 37)}…`;
}

/** What to tell the caller: which number, what it would become, and what to do ("send it as a string"). */
export function numberLossMessage(where: string, literal: string, loss: NumberLoss): string {
  const number = quoted(literal);
  switch (loss) {
    case 'overflow':
      return `${where} holds ${number}, beyond the largest number JSON can carry (it would be stored as null); send it as a string.`;
    case 'underflow':
      return `${where} holds ${number}, below the smallest number JSON can carry (it would be stored as 0); send it as a string.`;
    case 'digits':
      if (literal.length > MAX_NUMBER_LITERAL_LENGTH) {
        return `${where} holds ${number}, longer than the ${String(MAX_NUMBER_LITERAL_LENGTH)} characters a number JSON keeps can need; send it as a string.`;
      }
      return `${where} holds ${number}, which has more digits than a JSON number keeps (it would be stored as ${String(Number(literal))}); send it as a string.`;
  }
}
