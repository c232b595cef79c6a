/**
 * The filter box's text as a `matches` criterion: the upstream's `matches` is a full-string regular
 * expression (Java's `String.matches`), so "contains this text, any case" is built by hand. Inline flags
 * such as `(?i)` are not portable between Java and the emulator, so letters become `[aA]` classes.
 */

const SYNTAX = /[\\^$.|?*+()[\]{}]/;

/** Any one of `variants` (one character each). */
function caseClass(variants: string[]): string {
  // A class of surrogate pairs would match single code units in a non-Unicode regular-expression engine.
  return variants.every((v) => v.length === 1) ? `[${variants.join('')}]` : `(?:${variants.join('|')})`;
}

/** A full-string pattern matching any text that contains `text`, ignoring case. */
export function containsIgnoringCase(text: string): string {
  let pattern = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    if (SYNTAX.test(char)) pattern += `\\${char}`;
    // Only letters whose other case is one character too ('ß' upper-cases to 'SS').
    else if (lower !== upper && lower.length === char.length && upper.length === char.length)
      pattern += caseClass([...new Set([char, lower, upper])]);
    else pattern += char;
  }
  return `.*${pattern}.*`;
}
