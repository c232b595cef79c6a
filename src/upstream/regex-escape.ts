/**
 * Escaping literal text for the upstream's `matches` operator, which is Java's `String.matches`: the value
 * is a regular expression that must match the whole field (DESIGN.md).
 *
 * The output must mean the same literal in Java's `java.util.regex` and in a JavaScript `RegExp`, with or
 * without the `u` flag, because the emulator (or another faithful upstream) may evaluate it either way:
 * - the syntax characters `\^$.|?*+()[]{}` get a backslash, which all three dialects read as the literal;
 * - `-`, `&`, `~`, `#` (special inside Java classes, under Java's COMMENTS flag, or in future Java syntax),
 *   whitespace, control and format characters, and lone surrogates are written as `\xhh` or `\uhhhh`:
 *   a backslash before them is legal in Java but a syntax error in a `u`-flag JavaScript pattern, while the
 *   hex forms are read identically everywhere. They also keep the value printable, so no raw newline or
 *   NUL travels in a URL;
 * - everything else (letters, digits, other punctuation, any well-formed non-ASCII text) stays as it is.
 * Digits and letters are never preceded by a backslash: `\1` is a back-reference and `\d` a class.
 */

const SYNTAX_CHARACTERS = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
const HEX_ESCAPED_CHARACTERS = new Set(['-', '&', '~', '#']);
/** Whitespace, C0/C1 controls, line and paragraph separators, format characters (BOM, zero widths…). */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Writes one UTF-16 code unit as `\xhh` when it fits in a byte, else `\uhhhh`. */
function hexEscape(codeUnit: number): string {
  return codeUnit <= 0xff
    ? `\\x${codeUnit.toString(16).padStart(2, '0')}`
    : `\\u${codeUnit.toString(16).padStart(4, '0')}`;
}

/**
 * The pattern that matches exactly `literal` (as a whole string) under Java's `String.matches` and under
 * a JavaScript `RegExp` anchored with `^(?:…)$`.
 *
 * @example escapeJavaRegex('a.b|c') // 'a\\.b\\|c'
 */
export function escapeJavaRegex(literal: string): string {
  let out = '';
  // Iterating the string yields code points, and a lone surrogate as a one-unit string.
  for (const char of literal) {
    const unit = char.charCodeAt(0);
    if (SYNTAX_CHARACTERS.has(char)) {
      out += `\\${char}`;
    } else if (HEX_ESCAPED_CHARACTERS.has(char) || INVISIBLE.test(char)) {
      out += hexEscape(unit);
    } else if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      // A lone surrogate cannot be percent-encoded in a URL; as `\uDxxx` it stays plain ASCII.
      out += hexEscape(unit);
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * The alternation that matches any of `literals`, each escaped: `id1|id2|id3`. Java's `String.matches`
 * anchors the whole alternation, so every alternative has to match a whole `_id`.
 */
export function alternationOf(literals: readonly string[]): string {
  return literals.map(escapeJavaRegex).join('|');
}
