/**
 * The integer part of a JSON number token, as the JSON grammar has it: `0`, or a non-zero digit and up to
 * 30 more (longs past 2^53 among them). The random number literals of `test/unit/exact-json.test.ts` and
 * `test/unit/number-loss.test.ts` both start so; each adds its own fractions and exponents.
 */
import fc from 'fast-check';

const nonZeroDigit = fc.constantFrom('1', '2', '3', '4', '5', '6', '7', '8', '9');

export const jsonIntegerDigits = fc.oneof(
  fc.constant('0'),
  fc.tuple(nonZeroDigit, fc.stringMatching(/^[0-9]{0,30}$/)).map((p) => p.join('')),
);
