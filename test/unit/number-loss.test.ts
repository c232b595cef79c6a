/**
 * The digits rule of `number-loss.ts`, by property: what a double writes back is always exact; more
 * significant digits than a double keeps are always refused; 15 or fewer always pass; and how a literal is
 * spelt (leading and trailing zeros, where the point and the exponent sit) never changes the verdict. The JSON
 * finder reports the loss at the path where it was written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_NUMBER_LITERAL_LENGTH,
  numberLoss,
  numberLossMessage,
} from '../../src/upstream/dialect/number-loss.ts';
import { firstJsonNumberLoss } from '../../src/http/json-number-loss.ts';
import { jsonIntegerDigits } from '../support/json-integer-digits.ts';

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const nonZeroDigit = fc.constantFrom(...'123456789'.split(''));
const digit = fc.constantFrom(...'0123456789'.split(''));
/** Significant digits: first and last non-zero, `min` to `max` of them. */
const significant = (min: number, max: number) =>
  fc
    .tuple(
      nonZeroDigit,
      fc.array(digit, { minLength: Math.max(0, min - 2), maxLength: max - 2 }),
      nonZeroDigit,
    )
    .map(([first, middle, last]) => `${first}${middle.join('')}${last}`);

/** `0.D × 10^e` written another way: a point after `shift` digits, padding zeros, the exponent to match. */
function respell(digits: string, exponent: number, shift: number, lead: number, trail: number): string {
  const padded = '0'.repeat(lead) + digits + '0'.repeat(trail);
  const point = lead + shift;
  const integer = padded.slice(0, point) || '0';
  const fraction = padded.slice(point);
  // value = 0.D × 10^exponent = integer.fraction × 10^(exponent - shift)
  const literal = fraction === '' ? integer : `${integer}.${fraction}`;
  return `${literal.replace(/^0+(?=\d)/, '')}e${exponent - shift}`;
}

describe('numberLoss', () => {
  it.each([
    ['1e-400', 'underflow'],
    ['2e-324', 'underflow'],
    ['1e400', 'overflow'],
    ['-1.8e308', 'overflow'],
    ['0.12345678901234567890123', 'digits'],
    ['18446744073709551616', 'digits'],
    ['9007199254740993', 'digits'],
    ['3e-324', 'digits'],
  ])('should find that %s is changed (%s)', (literal, loss) => {
    expect(numberLoss(literal)).toBe(loss);
  });

  it.each(['0', '-0.0', '0e999999', '0.1', '1.50', '15e-1', '0.0015e3', '5e-324', '0.30000000000000004'])(
    'should find %s exact',
    (literal) => {
      expect(numberLoss(literal)).toBeUndefined();
    },
  );

  it('should find every number a double writes exact', () => {
    fc.assert(
      fc.property(finite, (value) => {
        expect(numberLoss(String(value))).toBeUndefined();
        expect(numberLoss(value.toExponential())).toBeUndefined();
        expect(numberLoss(JSON.stringify(value))).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('should refuse more significant digits than a double keeps (18 or more)', () => {
    fc.assert(
      fc.property(significant(18, 40), fc.integer({ min: -300, max: 300 }), (digits, exponent) => {
        expect(numberLoss(`0.${digits}e${exponent}`)).toBe('digits');
      }),
    );
  });

  it('should accept 15 significant digits or fewer within the range of normal doubles', () => {
    fc.assert(
      fc.property(
        significant(2, 15),
        fc.integer({ min: -300, max: 300 }),
        fc.boolean(),
        (digits, exponent, minus) => {
          expect(numberLoss(`${minus ? '-' : ''}0.${digits}e${exponent}`)).toBeUndefined();
        },
      ),
    );
  });

  it('should judge a number the same however it is spelt', () => {
    fc.assert(
      fc.property(
        significant(2, 25),
        fc.integer({ min: -340, max: 320 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        (digits, exponent, shift, lead, trail) => {
          const plain = `0.${digits}e${exponent}`;
          expect(numberLoss(respell(digits, exponent, Math.min(shift, digits.length), lead, trail))).toBe(
            numberLoss(plain),
          );
        },
      ),
    );
  });
});

describe('firstJsonNumberLoss', () => {
  const json = fc.jsonValue({ maxDepth: 3 });

  it('should find nothing in what JSON.stringify writes', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(firstJsonNumberLoss(JSON.stringify(value))).toBeUndefined();
      }),
    );
  });

  it('should find a changed number where it was written', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.nat(3)), { maxLength: 4 }),
        fc.constantFrom('1e-400', '0.12345678901234567890123', '1e400', '18446744073709551616'),
        (keys, literal) => {
          // Build `{"k1":[…{"k2": LITERAL}]}` along `keys`: strings are object keys, numbers array indexes.
          let text: string = literal;
          const path: (string | number)[] = [];
          for (const key of [...keys].reverse()) {
            if (typeof key === 'number') {
              text = `[${Array.from({ length: key }, () => '0.5').join(',')}${key > 0 ? ',' : ''}${text}]`;
            } else text = `{${JSON.stringify(key)}: ${text}}`;
            path.unshift(key);
          }
          const found = firstJsonNumberLoss(text);
          expect(found?.literal).toBe(literal);
          expect(found?.path).toEqual(path);
        },
      ),
    );
  });
});

/**
 * The rule written the simplest way (regular expressions, no bound on the length), and the bound on top:
 * `numberLoss` must agree with it on every literal, its trimming loops included.
 */
function referenceLoss(literal: string): string | undefined {
  const match = /^-?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (match === null) return undefined;
  if (literal.length > MAX_NUMBER_LITERAL_LENGTH) return 'digits';
  const value = Number(literal);
  if (!Number.isFinite(value)) return 'overflow';
  const normal = (integer: string, fraction: string, exponent: number) => {
    const all = integer + fraction;
    const lead = /^0*/.exec(all)?.[0].length ?? 0;
    const digits = all.slice(lead).replace(/0+$/, '');
    return digits === '' ? null : `${digits}@${String(integer.length - lead + exponent)}`;
  };
  const source = normal(match[1] ?? '', match[2] ?? '', Number(match[3] ?? '0'));
  if (source === null) return undefined;
  if (value === 0) return 'underflow';
  const [mantissa = '', power = '0'] = Math.abs(value).toExponential().split('e');
  const [integer = '', fraction = ''] = mantissa.split('.');
  return normal(integer, fraction, Number(power)) === source ? undefined : 'digits';
}

/** Number literals of every shape: zero runs anywhere, long or short, exponents with leading zeros. */
const literal = fc
  .tuple(
    fc.boolean(),
    jsonIntegerDigits,
    fc.option(
      fc
        .tuple(fc.stringMatching(/^[0-9]{0,20}$/), fc.nat(450), fc.stringMatching(/^[0-9]{1,20}$/))
        .map(([head, zeros, tail]) => `${head}${'0'.repeat(zeros)}${tail}`),
    ),
    fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), fc.nat(3), fc.nat(420))),
  )
  .map(([minus, integer, fraction, exponent]) => {
    const power = exponent === null ? '' : `${exponent[0]}${'0'.repeat(exponent[1])}${String(exponent[2])}`;
    return `${minus ? '-' : ''}${integer}${fraction === null ? '' : `.${fraction}`}${power}`;
  });

describe('numberLoss against the reference', () => {
  it('should agree with the simplest statement of the rule on random literals', () => {
    fc.assert(
      fc.property(literal, (written) => {
        expect(numberLoss(written)).toBe(referenceLoss(written));
      }),
      { numRuns: 3000 },
    );
  });

  it('should still judge every double written out in full, the longest included', () => {
    // 327 and 310 characters: below the bound, exact.
    const smallest = `-0.${'0'.repeat(307)}65538956290930145`;
    const largest = `-17976931348623157${'0'.repeat(292)}`;
    expect([smallest.length, largest.length]).toEqual([327, 310]);
    expect(numberLoss(smallest)).toBeUndefined();
    expect(numberLoss(largest)).toBeUndefined();
  });

  it('should refuse any literal over the bound as lost digits, saying so', () => {
    expect(numberLoss(`1.${'0'.repeat(MAX_NUMBER_LITERAL_LENGTH)}`)).toBe('digits');
    // Three million zeros: linear work takes milliseconds; the quadratic trimming this replaces took 3 s for
    // 90,000 of them, and would take about an hour here, far past the test's time limit. No stopwatch: the
    // answer arriving at all is the proof, however loaded the machine.
    const attack = `0.1${'0'.repeat(3_000_000)}1`;
    expect(numberLoss(attack)).toBe('digits');
    expect(numberLossMessage('variables.x', attack, 'digits')).toBe(
      `variables.x holds 0.1${'0'.repeat(34)}…, longer than the 400 characters a number JSON keeps can need; send it as a string.`,
    );
  });
});
