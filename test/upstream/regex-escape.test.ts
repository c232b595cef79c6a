import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alternationOf, escapeJavaRegex } from '../../src/upstream/pattern-guard/regex-escape.ts';

/** Full-string match, as Java's `String.matches`; `flags` '' or 'u' (an emulator may use either). */
function fullMatch(pattern: string, text: string, flags: string): boolean {
  return new RegExp(`^(?:${pattern})$`, flags).test(text);
}

const tricky = fc.constantFrom(
  ...'ab1.|()+*?[]{}^$\\-&~# \t\n\r\0/'.split(''),
  'é',
  '😀',
  '\u2028',
  '\ufeff',
  '\ud800',
);
const text = fc.oneof(fc.string({ unit: tricky, maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 6 }));

describe('escapeJavaRegex', () => {
  it.each([
    ['a.b', 'a\\.b'],
    ['x|y', 'x\\|y'],
    ['(z)', '\\(z\\)'],
    ['a+', 'a\\+'],
    ['\\1', '\\\\1'],
    ['a-b&c~d#e f', 'a\\x2db\\x26c\\x7ed\\x23e\\x20f'],
    ['line\nbreak', 'line\\x0abreak'],
    ['\u2028', '\\u2028'],
    ['\ud800', '\\ud800'],
    ['\u{1bca0}', '\\ud82f\\udca0'],
    ['plain-ID_09é😀', 'plain\\x2dID_09é😀'],
  ])('should escape %j as %j', (literal, expected) => {
    expect(escapeJavaRegex(literal)).toBe(expected);
  });

  it('should match exactly its literal and nothing else, with and without the u flag', () => {
    fc.assert(
      fc.property(text, text, (literal, other) => {
        const pattern = escapeJavaRegex(literal);
        for (const flags of ['', 'u']) {
          expect(fullMatch(pattern, literal, flags)).toBe(true);
          expect(fullMatch(pattern, other, flags)).toBe(literal === other);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('should never put a raw whitespace, control character or lone surrogate in the pattern', () => {
    fc.assert(
      fc.property(text, (literal) => {
        expect(escapeJavaRegex(literal)).not.toMatch(/[\s\p{Cc}\p{Cf}]|\p{Cs}/u);
      }),
    );
  });
});

describe('alternationOf', () => {
  it('should match any of its literals and nothing else', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), text, (literals, other) => {
        const pattern = alternationOf(literals);
        for (const literal of literals) expect(fullMatch(pattern, literal, 'u')).toBe(true);
        expect(fullMatch(pattern, other, 'u')).toBe(literals.includes(other));
      }),
    );
  });
});
