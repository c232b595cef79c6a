/**
 * The `JSON` and `JSONObject` scalars read a document literal as graphql-scalars does, except that a whole
 * number a Java long holds past 2^53 keeps its digits (graphql-scalars' `parseFloat` made it …992).
 */
import fc from 'fast-check';
import { parseValue } from 'graphql';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import { describe, expect, it } from 'vitest';
import { ExactJSONObjectResolver, ExactJSONResolver } from '../../src/resolvers/exact-json-scalars.ts';

/** A JSON value written as a GraphQL literal (object keys kept to names GraphQL allows). */
function literal(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${key}: ${literal(item)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(value);
}

const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.string(),
    fc.integer(),
    // A whole double past the safe integers (2^53 itself included) is written as a long's digits, which
    // the gateway keeps: the second test's case, not this one's.
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((value) => !Number.isInteger(value) || Number.isSafeInteger(value)),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(key, tie('json'), { maxKeys: 4 }),
  ),
}));

describe('ExactJSONResolver', () => {
  it('should read any literal as graphql-scalars does when it holds no long past 2^53', () => {
    fc.assert(
      fc.property(json, (value) => {
        const node = parseValue(literal(value));
        expect(ExactJSONResolver.parseLiteral(node, undefined)).toEqual(
          JSONResolver.parseLiteral(node, undefined),
        );
      }),
    );
  });

  it('should keep the digits of a long, and read other numbers with parseFloat', () => {
    const node = parseValue(
      '{ no: 9007199254740993, list: [-9223372036854775808, 2.5, 18446744073709551616], v: $v }',
    );
    const value = ExactJSONObjectResolver.parseLiteral(node, { v: 1 });
    expect(JSON.stringify(value)).toBe(
      '{"no":9007199254740993,"list":[-9223372036854775808,2.5,18446744073709552000],"v":1}',
    );
    expect(JSON.stringify(JSONObjectResolver.parseLiteral(node, { v: 1 }))).toContain(
      '"no":9007199254740992',
    );
  });

  it('should refuse a non-object for JSONObject', () => {
    expect(() => ExactJSONObjectResolver.parseLiteral(parseValue('[1]'), undefined)).toThrow(TypeError);
  });
});
