/**
 * Test helper: the texts an upstream may hold for one stored number, which `matches` compares. JavaScript
 * writes `String(n)`; a Java service writes `Double.toString(n)` (`3.0`, `1.0E21`); a saved `2.50` may keep
 * its zeros. Every spelling reads back as the number itself.
 */

/** The shortest digits of `|value|` and the power of ten of the first, from `toExponential()`. */
function digitsOf(value: number): { digits: string; exponent: number } {
  const [mantissa = '0', power = '0'] = Math.abs(value).toExponential().split('e');
  return { digits: mantissa.replace('.', ''), exponent: Number(power) };
}

/** Plain decimal notation of `value`, never scientific: `1000000000000000000000`, `0.00000015`. */
export function plainSpelling(value: number): string {
  const { digits, exponent } = digitsOf(value);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integer = digits.padEnd(exponent + 1, '0').slice(0, exponent + 1);
  const fraction = digits.slice(exponent + 1);
  return `${sign}${integer}${fraction === '' ? '' : `.${fraction}`}`;
}

/** `Double.toString(value)` as Java formats it: plain within [10⁻³, 10⁷), else `d.dddE±n`; always a point. */
export function javaSpelling(value: number): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const magnitude = Math.abs(value);
  if (magnitude === 0) return `${sign}0.0`;
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const plain = plainSpelling(magnitude);
    return `${sign}${plain.includes('.') ? plain : `${plain}.0`}`;
  }
  const { digits, exponent } = digitsOf(magnitude);
  return `${sign}${digits.slice(0, 1)}.${digits.slice(1) || '0'}E${exponent}`;
}

/** Every spelling of `value` the tests try. */
export function spellings(value: number): string[] {
  const plain = plainSpelling(value);
  return [
    ...new Set([
      String(value),
      value.toExponential(),
      value.toExponential().toUpperCase(),
      javaSpelling(value),
      plain,
      `${plain}${plain.includes('.') ? '00' : '.0'}`,
    ]),
  ];
}
