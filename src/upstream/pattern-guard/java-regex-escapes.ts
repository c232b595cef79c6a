/**
 * Java's backslash escapes, read for the pattern guard: each becomes a literal code point, a character class
 * or an assertion written in the checker's dialect (ECMAScript, `u` flag), or a {@link PatternRefusal}
 * naming the construct when Java means something the checker cannot model (`\Q…\E`, back-references,
 * `\R`, `\X`, script and block properties…).
 */
import { PatternRefusal } from './java-regex-ast.ts';

/** What an escape stands for, and the index just after it. */
export type Escape =
  | { kind: 'literal'; codePoint: number; end: number }
  | { kind: 'class'; js: string; end: number }
  | { kind: 'assert'; js: string; end: number };

const SIMPLE_LITERALS: Readonly<Record<string, number>> = { t: 9, n: 10, r: 13, f: 12, a: 7, e: 27 };
const SHORTHAND_CLASSES = new Set(['d', 'D', 's', 'S', 'w', 'W']);
/**
 * Java's `\s` and `\S` (without UNICODE_CHARACTER_CLASS): `[ \t\n\x0B\f\r]` and its complement, as a
 * class of their own and as members inside a class. `\d` and `\w` are ASCII in both dialects.
 */
const JAVA_WHITESPACE: Readonly<Record<string, { alone: string; inClass: string }>> = {
  s: { alone: '[\\t-\\r ]', inClass: '\\t-\\r ' },
  S: { alone: '[^\\t-\\r ]', inClass: '\\x00-\\x08\\x0e-\\x1f!-\\u{10ffff}' },
};
/** Java's `\h` and `\v` (horizontal and vertical whitespace); ECMAScript's `\v` is one character. */
const WHITESPACE_CLASSES: Readonly<Record<string, string>> = {
  h: '[\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000]',
  H: '[^\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000]',
  v: '[\\n\\x0b\\f\\r\\x85\\u2028\\u2029]',
  V: '[^\\n\\x0b\\f\\r\\x85\\u2028\\u2029]',
};
const ASSERTIONS: Readonly<Record<string, string>> = { b: '\\b', B: '\\B', A: '^', z: '$', Z: '$', G: '^' };
/** Java's POSIX classes (US-ASCII only unless UNICODE_CHARACTER_CLASS, which the guard never sees). */
const POSIX: Readonly<Record<string, string>> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7f',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: '0-9a-zA-Z',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1f\\x7f',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\x0b\\f\\r',
};
const GENERAL_CATEGORY =
  /^(?:Is|gc=|general_category=)?(L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfsno]?)$/;
const HEX = /^[0-9a-fA-F]+$/;

/** A code point written in the checker's dialect: letters and digits as they are, the rest as `\u{…}`. */
export function literalJs(codePoint: number): string {
  return /^[0-9A-Za-z]$/.test(String.fromCodePoint(codePoint))
    ? String.fromCodePoint(codePoint)
    : `\\u{${codePoint.toString(16)}}`;
}

function refuse(construct: string, start: number, end: number, advice: string): never {
  throw new PatternRefusal(construct, { start, end }, advice);
}

function invalid(start: number, end: number): never {
  throw new PatternRefusal(
    'unknown or malformed escape',
    { start, end },
    'escape punctuation with a backslash and write letters and digits as they are',
    'invalid',
  );
}

/** `\p{Name}`, `\pL`, `\P{Name}`: the POSIX classes and the Unicode general categories. */
function readProperty(pattern: string, start: number, inClass: boolean): Escape {
  const negated = pattern[start + 1] === 'P';
  let name: string;
  let end: number;
  if (pattern[start + 2] === '{') {
    const close = pattern.indexOf('}', start + 3);
    if (close < 0) invalid(start, pattern.length);
    name = pattern.slice(start + 3, close);
    end = close + 1;
  } else {
    name = pattern[start + 2] ?? '';
    end = start + 3;
  }
  const posix = POSIX[name];
  if (posix !== undefined) {
    if (negated && inClass) {
      refuse('negated POSIX class inside a class', start, end, 'write the characters you want as ranges');
    }
    return { kind: 'class', js: inClass ? posix : `[${negated ? '^' : ''}${posix}]`, end };
  }
  const category = GENERAL_CATEGORY.exec(name)?.[1];
  if (category !== undefined) return { kind: 'class', js: `\\${negated ? 'P' : 'p'}{${category}}`, end };
  return refuse(
    'character property',
    start,
    end,
    'use a POSIX class such as \\p{Alpha}, a general category such as \\p{Lu}, or explicit ranges',
  );
}

/** Reads `\0n`, `\0nn` or `\0mnn` (Java's octal escapes: `m` at most 3). */
function readOctal(pattern: string, start: number): Escape {
  let end = start + 2;
  const limit = /[0-3]/.test(pattern[end] ?? '') ? 3 : 2;
  while (end < start + 2 + limit && /[0-7]/.test(pattern[end] ?? '')) end += 1;
  if (end === start + 2) invalid(start, end);
  return { kind: 'literal', codePoint: parseInt(pattern.slice(start + 2, end), 8), end };
}

/** `\xhh` and `\x{h…h}`. */
function readHex(pattern: string, start: number): Escape {
  if (pattern[start + 2] === '{') {
    const close = pattern.indexOf('}', start + 3);
    const digits = close < 0 ? '' : pattern.slice(start + 3, close);
    if (!HEX.test(digits) || digits.length > 6 || parseInt(digits, 16) > 0x10ffff) invalid(start, start + 3);
    return { kind: 'literal', codePoint: parseInt(digits, 16), end: close + 1 };
  }
  const digits = pattern.slice(start + 2, start + 4);
  if (digits.length !== 2 || !HEX.test(digits)) invalid(start, start + 2);
  return { kind: 'literal', codePoint: parseInt(digits, 16), end: start + 4 };
}

/** `\uhhhh`; a surrogate pair written as two escapes is one code point, as in Java. */
function readUnicode(pattern: string, start: number): Escape {
  const digits = pattern.slice(start + 2, start + 6);
  if (digits.length !== 4 || !HEX.test(digits)) invalid(start, start + 2);
  const unit = parseInt(digits, 16);
  const next = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(pattern.slice(start + 6));
  if (unit >= 0xd800 && unit <= 0xdbff && next?.[1] !== undefined) {
    const low = parseInt(next[1], 16);
    return {
      kind: 'literal',
      codePoint: 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00),
      end: start + 12,
    };
  }
  return { kind: 'literal', codePoint: unit, end: start + 6 };
}

/** Reads the escape at `pattern[start] === '\\'`. */
export function readEscape(pattern: string, start: number, inClass: boolean): Escape {
  const letter = pattern[start + 1];
  if (letter === undefined) return invalid(start, start + 1);
  const simple = SIMPLE_LITERALS[letter];
  if (simple !== undefined) return { kind: 'literal', codePoint: simple, end: start + 2 };
  if (SHORTHAND_CLASSES.has(letter)) {
    // Java's `\s` is ASCII whitespace only; ECMAScript's also holds `\xa0`, `\u2028`, `\ufeff`… Read with
    // the checker's meaning, `\S*\xa0*x` looked free of overlap, yet it is quadratic in Java.
    const javaSpace = JAVA_WHITESPACE[letter];
    if (javaSpace !== undefined)
      return { kind: 'class', js: inClass ? javaSpace.inClass : javaSpace.alone, end: start + 2 };
    return { kind: 'class', js: `\\${letter}`, end: start + 2 };
  }
  const whitespace = WHITESPACE_CLASSES[letter];
  if (whitespace !== undefined) {
    if (inClass)
      refuse('whitespace class inside a class', start, start + 2, 'write the characters as ranges');
    return { kind: 'class', js: whitespace, end: start + 2 };
  }
  const assertion = ASSERTIONS[letter];
  if (assertion !== undefined && !inClass) {
    if (pattern[start + 2] === '{') refuse('grapheme boundary', start, start + 3, 'remove it');
    return { kind: 'assert', js: assertion, end: start + 2 };
  }
  switch (letter) {
    case 'p':
    case 'P':
      return readProperty(pattern, start, inClass);
    case '0':
      return readOctal(pattern, start);
    case 'x':
      return readHex(pattern, start);
    case 'u':
      return readUnicode(pattern, start);
    case 'c': {
      const control = pattern.codePointAt(start + 2);
      if (control === undefined) return invalid(start, start + 2);
      return { kind: 'literal', codePoint: control ^ 64, end: start + 2 + (control > 0xffff ? 2 : 1) };
    }
    case 'Q':
    case 'E':
      return refuse(
        '\\Q…\\E quoting',
        start,
        start + 2,
        'escape each special character with a backslash instead',
      );
    case 'k':
      return refuse('named back-reference', start, start + 3, 'remove the back-reference');
    case 'R':
      return refuse('line-break matcher', start, start + 2, 'use [\\n\\r] instead');
    case 'X':
      return refuse('grapheme matcher', start, start + 2, 'match the characters explicitly');
    case 'N':
      return refuse('named character', start, start + 3, 'write the character itself or \\uhhhh');
    default:
      break;
  }
  if (/[1-9]/.test(letter)) {
    return refuse('back-reference', start, start + 2, 'remove the back-reference');
  }
  if (/[0-9A-Za-z]/.test(letter)) return invalid(start, start + 2);
  // A backslash before any other character is that character (Java and ECMAScript agree).
  const codePoint = pattern.codePointAt(start + 1) ?? 0;
  return { kind: 'literal', codePoint, end: start + 1 + (codePoint > 0xffff ? 2 : 1) };
}
