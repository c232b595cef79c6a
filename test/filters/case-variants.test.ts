/** Which letters `caseInsensitive` treats as the same. */
import { describe, expect, it } from 'vitest';
import { caseVariants, LAST_CASED_CODE_POINT_SCANNED } from '../../src/filters/case-variants.ts';

describe('caseVariants', () => {
  it.each([
    ['a', ['a', 'A']],
    ['ǅ', ['ǅ', 'Ǆ', 'ǆ']],
    ['k', ['k', 'K', '\u212a']],
    ['ß', ['ß', 'ẞ']],
    ['İ', ['İ']],
    ['1', ['1']],
    ['𐐨', ['𐐨', '𐐀']],
  ])('should answer the letters that match %j, itself first', (char, expected) => {
    expect(caseVariants(char)).toEqual(expected);
  });

  it('should find every letter with a case: none lies past the code points scanned at load', () => {
    // If a Unicode update adds cased letters beyond plane 1, the scan must be widened.
    const cased = /\p{Changes_When_Casemapped}/u;
    const beyond: string[] = [];
    for (let cp = LAST_CASED_CODE_POINT_SCANNED + 1; cp <= 0x10ffff; cp += 1) {
      if (cased.test(String.fromCodePoint(cp))) beyond.push(cp.toString(16));
    }
    expect(beyond).toEqual([]);
  });
});
