/**
 * A decimal number's identity, whatever its spelling: `1250`, `1250.0`, `1.25E3` and `12.50e2` all have the
 * key `1.25e3`; `-0.0` and `0` the key `0`. Computed from the digits, never through a double, so a `Long`'s
 * 19 digits or a `BigDecimal`'s 30 compare exactly. Used to judge an upstream's numeric answers by meaning.
 */

/** A decimal number as JSON, Java (`Double.toString`, `BigDecimal`) or a person writes it. */
const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,9}))?$/;

/** The key of the number `text` spells, or `undefined` when it is not a decimal number. */
export function decimalKey(text: string): string | undefined {
  const parts = DECIMAL.exec(text);
  if (parts === null) return undefined;
  const [, sign = '', whole = '', fraction = '', power = '0'] = parts;
  if (whole === '' && fraction === '') return undefined;
  const all = `${whole}${fraction}`;
  const first = all.search(/[1-9]/);
  if (first === -1) return '0';
  let end = all.length;
  while (all.charAt(end - 1) === '0') end -= 1;
  // The power of ten of the first significant digit.
  const exponent = whole.length - first - 1 + Number(power);
  return `${sign === '-' ? '-' : ''}${all.charAt(first)}.${all.slice(first + 1, end)}e${exponent}`;
}
