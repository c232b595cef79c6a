/**
 * Literal text as a piece of a Java regular expression that the upstream's `matches` (Java's
 * `String.matches`) and the emulator's JavaScript `RegExp` (with or without the `u` flag) read the same way.
 */
import { escapeJavaRegex } from '../upstream/pattern-guard/regex-escape.ts';
import { caseVariants } from './case-variants.ts';

/**
 * Any text at all, line terminators included: Java's `.` stops at them unless `(?s)` is on, and inline
 * flags are not portable to JavaScript, while `[\s\S]` is every character in all three dialects.
 */
export const ANY_TEXT = '[\\s\\S]*';

/** A pattern no text matches (an empty class is written `[^\s\S]` so that Java and JavaScript agree). */
export const NOTHING = '[^\\s\\S]';

/**
 * The empty literal as an explicit empty group: an empty `value` is easy for an upstream to read as "no
 * filter", while `(?:)` can only mean the empty string.
 */
const EMPTY = '(?:)';

/** Any one of `variants` (letters, one code point each). */
function oneOf(variants: readonly string[]): string {
  // A class of surrogate pairs would match lone code units in a JavaScript pattern without the `u` flag,
  // so a letter outside the BMP (`𐐀`/`𐐨`) makes the whole choice an alternation.
  if (variants.every((v) => v.length === 1)) return `[${variants.map(escapeJavaRegex).join('')}]`;
  return `(?:${variants.map(escapeJavaRegex).join('|')})`;
}

/**
 * The pattern matching exactly `text` (as a whole, once anchored), each letter in any case when
 * `caseInsensitive` (`[Hh][Oo]…`; see `case-variants.ts` for which letters count as the same). Contains no
 * repetition, so it is linear in any backtracking engine.
 */
export function literalPattern(text: string, caseInsensitive: boolean): string {
  if (text === '') return EMPTY;
  if (!caseInsensitive) return escapeJavaRegex(text);
  let out = '';
  for (const char of text) {
    const variants = caseVariants(char);
    out += variants.length === 1 ? escapeJavaRegex(char) : oneOf(variants);
  }
  return out;
}
