/**
 * Escaping literal text for the upstream's `matches` operator, which is Java's `String.matches`: the value
 * is a regular expression that must match the whole field (docs/design.md).
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
const LONE_SURROGATE = /^\p{Cs}$/u;

/**
 * Writes a character (one code point, or a lone surrogate) as `\xhh` when it fits in a byte, else as
 * `\uhhhh` per UTF-16 unit: a supplementary character becomes its surrogate pair `\uD8xx\uDCxx`, which
 * Java's Pattern and a `u`-flag RegExp read as one code point and a plain RegExp as two units.
 */
function hexEscape(char: string): string {
  const first = char.charCodeAt(0);
  if (char.length === 1 && first <= 0xff) return `\\x${first.toString(16).padStart(2, '0')}`;
  let out = '';
  for (let i = 0; i < char.length; i += 1) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
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
    if (SYNTAX_CHARACTERS.has(char)) {
      out += `\\${char}`;
    } else if (HEX_ESCAPED_CHARACTERS.has(char) || INVISIBLE.test(char)) {
      out += hexEscape(char);
    } else if (LONE_SURROGATE.test(char)) {
      // A lone surrogate cannot be percent-encoded in a URL; as `\uDxxx` it stays plain ASCII.
      out += hexEscape(char);
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
