/**
 * A number as a `matches` pattern. The upstream stores numbers as JSON numbers and `matches` compares their
 * text, which the contract does not spell: JavaScript writes `2.5`, `3`, `1e+21`; Java's `Double.toString`
 * writes `2.5`, `3.0`, `1.0E21`; a record saved as `2.50` may keep its trailing zero. So a typed filter's
 * number is compiled to the pattern of every such spelling of that one value (the shortest digits that
 * identify it, in plain or scientific notation, with any trailing zeros) and of no other value.
 */

/** The shortest decimal digits of `magnitude` (no leading or trailing zeros, `0` for zero) and the power of ten of the first. */
function shortestDigits(magnitude: number): { digits: string; exponent: number } {
  // `toExponential()` without an argument writes as many digits as the value needs to be read back exactly.
  const [mantissa = '0', power = '0'] = magnitude.toExponential().split('e');
  const digits = mantissa.replace('.', '').replace(/(?<=.)0+$/, '');
  return { digits, exponent: Number(power) };
}

/** A whole number's text (a `Long`'s digits, `-9007199254740993`). */
const WHOLE = /^-?\d+$/;

/** The digits of a whole number's text as {@link shortestDigits} gives them: every digit, none through a double. */
function wholeDigits(text: string): { negative: boolean; zero: boolean; digits: string; exponent: number } {
  const negative = text.startsWith('-');
  const magnitude = text.replace(/^-?0*/, '');
  if (magnitude === '') return { negative, zero: true, digits: '0', exponent: 0 };
  let end = magnitude.length;
  while (end > 1 && magnitude.charAt(end - 1) === '0') end -= 1;
  return { negative, zero: false, digits: magnitude.slice(0, end), exponent: magnitude.length - 1 };
}

/** `\.<digits>0*` when there are digits after the point, else an optional point followed by zeros. */
const fraction = (digits: string): string => (digits === '' ? '(?:\\.0*)?' : `\\.${digits}0*`);

/** Plain notation: `1234.5`, `0.00012`, `3` (`3.`, `3.00`). */
function plainPattern(digits: string, exponent: number): string {
  if (exponent < 0) return `0${fraction(`${'0'.repeat(-exponent - 1)}${digits}`)}`;
  const integer = digits.padEnd(exponent + 1, '0').slice(0, exponent + 1);
  return `${integer}${fraction(digits.slice(exponent + 1))}`;
}

/** Scientific notation: `1.2345E3`, `1.2345e+3`, `1e-7`, `1.0E21`. */
function scientificPattern(digits: string, exponent: number): string {
  const power = exponent < 0 ? `-${-exponent}` : `\\+?${exponent}`;
  return `${digits.slice(0, 1)}${fraction(digits.slice(1))}[eE]${power}`;
}

/**
 * The pattern (for `matches`, which anchors it) of every decimal spelling of `value`: an optional `-` for
 * zero (`-0.0` is `0`), the shortest digits of `value` in plain or scientific notation, trailing zeros
 * allowed. Linear in any backtracking engine: one alternation of two branches, each a literal with one
 * `0*` that only digits outside the pattern can end. Throws for a non-finite number (GraphQL never
 * delivers one).
 */
export function numberPattern(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`numberPattern: ${String(value)} is not a finite number`);
  const { digits, exponent } = shortestDigits(Math.abs(value));
  const sign = value === 0 ? '-?' : value < 0 ? '-' : '';
  return `${sign}(?:${plainPattern(digits, exponent)}|${scientificPattern(digits, exponent)})`;
}

/**
 * {@link numberPattern} of a number given as text: a whole number's digits are read as written (a `Long`
 * past 2^53, which a double would round), any other text through `Number` (what `String(n)` wrote).
 */
export function numberTextPattern(text: string): string {
  if (!WHOLE.test(text)) return numberPattern(Number(text));
  const { negative, zero, digits, exponent } = wholeDigits(text);
  const sign = zero ? '-?' : negative ? '-' : '';
  return `${sign}(?:${plainPattern(digits, exponent)}|${scientificPattern(digits, exponent)})`;
}
