/**
 * `withoutSuggestion` against graphql-js's own `didYouMean`: whatever names it suggests (one to five, with
 * or without the enum sub-message), the suggestion goes and the message before it stays, byte for byte; a
 * message without one, whatever the caller wrote into it, is left alone.
 */
import fc from 'fast-check';
import { didYouMean } from 'graphql/jsutils/didYouMean.js';
import { describe, expect, it } from 'vitest';
import { withoutSuggestion } from '../../src/errors/schema-hints.ts';

const name = fc.stringMatching(/^[_A-Za-z][_0-9A-Za-z]{0,20}$/);
const names = fc.array(name, { minLength: 1, maxLength: 8 });
// A message as graphql-js builds it, possibly quoting the caller's own value (even a fake suggestion).
const message = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'Value "matchs" does not exist in "FilterOperator" enum.',
    'Variable "$w" got invalid value { numbr: "Did you mean \\"x\\"?" }; Field "numbr" is not defined by type "OrderWhere".',
  ),
);

describe('withoutSuggestion', () => {
  it('should take off any suggestion graphql-js appends, and nothing else', () => {
    fc.assert(
      fc.property(message, names, fc.boolean(), (text, suggested, enumValue) => {
        const hint = enumValue ? didYouMean('the enum value', suggested) : didYouMean(suggested);
        expect(withoutSuggestion(text + hint)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('should leave a message without a trailing suggestion unchanged', () => {
    fc.assert(
      fc.property(message, (text) => {
        fc.pre(!/ Did you mean .*\?$/.test(text));
        expect(withoutSuggestion(text)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
