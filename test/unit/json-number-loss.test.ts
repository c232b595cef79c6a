/**
 * The JSON number scanner (`src/http/json-number-loss.ts`): it finds, at the path where it was written, a
 * number a double would change, only under `variables` when asked (the reviewer's bypass: a lossy number in
 * `extensions` first hid the one in `variables`), whatever the nesting (a reviver overflowed the stack at
 * 5,000 levels and the check then let everything through); and its fast path never skips a body the scan
 * would refuse, while digit runs inside strings no longer make every body pay for the scan.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mightLoseNumber, numberLoss } from '../../src/upstream/dialect/number-loss.ts';
import { firstJsonNumberLoss } from '../../src/http/json-number-loss.ts';

/** The body the reviewer sent: it returned 200 and stored `rate: 0`. */
const REVIEWER_BODY =
  '{"extensions":{"z":1e-400},"query":"mutation ($data: JSONObject!) { saveObject(objectName: \\"com.example.LoanType\\", data: $data) { id } }","variables":{"data":{"rate":1e-400}}}';

describe('firstJsonNumberLoss under a key', () => {
  it('should find the loss under variables past one elsewhere', () => {
    expect(firstJsonNumberLoss(REVIEWER_BODY)?.path).toEqual(['extensions', 'z']);
    expect(firstJsonNumberLoss(REVIEWER_BODY, 'variables')).toEqual({
      path: ['variables', 'data', 'rate'],
      literal: '1e-400',
      loss: 'underflow',
    });
    expect(
      firstJsonNumberLoss('{"extensions":{"z":1e-400},"variables":{"x":1}}', 'variables'),
    ).toBeUndefined();
  });

  it('should read escaped keys as JSON does, and skip numbers inside strings', () => {
    expect(firstJsonNumberLoss('{"\\u0076ariables": {"a\\"b": [1, 1e-400]}}', 'variables')?.path).toEqual([
      'variables',
      'a"b',
      1,
    ]);
    expect(
      firstJsonNumberLoss('{"variables": {"s": "x\\\\\\" 1e-400 ", "n": 1}}', 'variables'),
    ).toBeUndefined();
  });

  it('should search a body nested 20,000 deep, before and under variables', () => {
    const deep = `${'['.repeat(20_000)}0${']'.repeat(20_000)}`;
    expect(
      firstJsonNumberLoss(`{"extensions": ${deep}, "variables": {"rate": 1e-400}}`, 'variables')?.path,
    ).toEqual(['variables', 'rate']);
    const found = firstJsonNumberLoss(
      `{"variables": ${'['.repeat(20_000)}1e-400${']'.repeat(20_000)}}`,
      'variables',
    );
    expect(found?.path).toEqual(['variables', ...Array.from({ length: 20_000 }, () => 0)]);
  });
});

describe('the fast path', () => {
  it('should skip bodies whose only long digit runs are inside strings', () => {
    for (const text of [
      '{"id": "x 64b7f0c2a1e0d000 1234567890123456789"}',
      '{"note": "x ................"}',
      '{"note": "see 1e5"}',
      '{"ids": ["12345678901234567890", "1e-400"]}',
    ]) {
      mightLoseNumber(text);
    }
  });

  it('should end in linear time on 2.7 MB written to defeat it', () => {
    // A linear pass over these takes well under a second; a quadratic one (a backtracking pattern, a rescan
    // from every position) would take hours, far past the test's time limit. No stopwatch: the answers
    // arriving at all are the proof, however loaded the machine.
    for (const text of [
      `[${'1,'.repeat(1_350_000)}1]`,
      `[${'1'.repeat(2_700_000)}x]`,
      `{"a": "${' 1.1'.repeat(675_000)}"}`,
      `{"a": "${', 1111111111111111'.repeat(150_000)}"}`,
    ]) {
      mightLoseNumber(text);
      if (text.startsWith('[1,')) expect(firstJsonNumberLoss(text)).toBeUndefined();
    }
  });

  /** Number literals, many of them changed by a double: long digit runs, large and small exponents. */
  const randomLiteral = fc
    .tuple(
      fc.constantFrom('', '-'),
      fc.stringMatching(/^(0|[1-9][0-9]{0,24})$/),
      fc.option(fc.stringMatching(/^[0-9]{1,24}$/)),
      fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-'), fc.integer({ min: 0, max: 420 }))),
    )
    .map(
      ([minus, integer, fraction, exponent]) =>
        `${minus}${integer}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `${exponent[0]}${String(exponent[1])}`}`,
    );
  /** With the shortest changed ones (16 digits, just past what a double holds) made common. */
  const literal = fc.oneof(
    randomLiteral,
    fc.constantFrom('9007199254740993', '-9999999999999999', '9007199254740992', '3e-324', '1E400'),
  );
  const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
  /** JSON texts written by hand: raw literals, strings holding number-like runs, any JSON whitespace. */
  const { value: json } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      literal,
      fc
        .tuple(fc.string({ maxLength: 4 }), literal, fc.string({ maxLength: 4 }))
        .map((parts) => JSON.stringify(parts.join(''))),
      fc.constantFrom('true', 'false', 'null'),
      fc
        .array(fc.tuple(space, tie('value'), space), { maxLength: 4 })
        .map((items) => `[${items.map((item) => item.join('')).join(',')}]`),
      fc
        .uniqueArray(fc.tuple(fc.string({ maxLength: 3 }), space, tie('value')), {
          maxLength: 4,
          selector: ([key]) => key,
        })
        .map(
          (entries) =>
            `{${entries.map(([key, s, v]) => `${s}${JSON.stringify(key)}${s}:${s}${v}`).join(',')}}`,
        ),
    ),
  }));

  /** Whether `JSON.parse`'s reviver (the parser's own reading of each number's source) sees a changed number. */
  function reviverFindsLoss(text: string): boolean {
    let found = false;
    JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) => {
      if (
        typeof value === 'number' &&
        context?.source !== undefined &&
        numberLoss(context.source) !== undefined
      ) {
        found = true;
      }
      return value;
    });
    return found;
  }

  function valueAt(root: unknown, path: (string | number)[]): unknown {
    let value = root;
    for (const key of path) value = (value as Record<string | number, unknown>)[key];
    return value;
  }

  it('should never skip a body the full check would refuse, and find the changed number where it is', () => {
    fc.assert(
      fc.property(space, json, space, (before, text, after) => {
        const body = `${before}${text}${after}`;
        const found = firstJsonNumberLoss(body);
        if (reviverFindsLoss(body)) {
          expect(mightLoseNumber(body)).toBe(true);
          expect(found).toBeDefined();
        } else expect(found).toBeUndefined();
        if (found !== undefined) {
          expect(numberLoss(found.literal)).toBe(found.loss);
          expect(Object.is(valueAt(JSON.parse(body), found.path), Number(found.literal))).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
