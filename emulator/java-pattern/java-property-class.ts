/**
 * The code points of Java's predefined classes (`\d`, `\s`, `\h`, …) and of its `\p{…}` properties, as
 * `java.util.regex` defines them without `UNICODE_CHARACTER_CLASS`: POSIX names are US-ASCII only,
 * categories and scripts are Unicode. Unicode sets are computed from V8's own tables (the `u` flag's
 * `\p{…}`), so characters assigned after Java 17's Unicode 13 may differ.
 */
import { type CodePointSet, complement, setOf } from './code-point-set.ts';

const ASCII_PUNCT = setOf([0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]);
const ALPHA = setOf([0x41, 0x5a], [0x61, 0x7a]);
const DIGIT = setOf([0x30, 0x39]);
const ALNUM = setOf(...ALPHA, ...DIGIT);

/** Java's POSIX classes (`\p{Alpha}`, …), US-ASCII only. */
const POSIX: Record<string, CodePointSet> = {
  Lower: setOf([0x61, 0x7a]),
  Upper: setOf([0x41, 0x5a]),
  ASCII: setOf([0, 0x7f]),
  Alpha: ALPHA,
  Digit: DIGIT,
  Alnum: ALNUM,
  Punct: ASCII_PUNCT,
  Graph: setOf(...ALNUM, ...ASCII_PUNCT),
  Print: setOf(...ALNUM, ...ASCII_PUNCT, [0x20, 0x20]),
  Blank: setOf([0x20, 0x20], [0x09, 0x09]),
  Cntrl: setOf([0, 0x1f], [0x7f, 0x7f]),
  XDigit: setOf([0x30, 0x39], [0x41, 0x46], [0x61, 0x66]),
  Space: setOf([0x20, 0x20], [0x09, 0x0d]),
};

/** Predefined classes: the lower-case letter; the upper-case one is its complement. */
const PREDEFINED: Record<string, CodePointSet> = {
  d: DIGIT,
  s: setOf([0x20, 0x20], [0x09, 0x0d]),
  w: setOf(...ALNUM, [0x5f, 0x5f]),
  h: setOf([0x20, 0x20], [0x09, 0x09], [0xa0, 0xa0], [0x1680, 0x1680], [0x180e, 0x180e], [0x2000, 0x200a]),
  v: setOf([0x0a, 0x0d], [0x85, 0x85], [0x2028, 0x2029]),
};
// `\h` also holds U+202F, U+205F and U+3000 (kept apart above only for line length).
PREDEFINED.h = setOf(...(PREDEFINED.h ?? []), [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000]);

/** The set of `\d`, `\D`, `\s`, … (`letter` is the escape's letter), or `undefined` for other letters. */
export function predefinedClass(letter: string): CodePointSet | undefined {
  const set = PREDEFINED[letter.toLowerCase()];
  if (set === undefined) return undefined;
  return letter === letter.toLowerCase() ? set : complement(set);
}

const CATEGORIES = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Co Cs Cn LC'.split(
    ' ',
  ),
);
/** Java's binary properties (`\p{IsAlphabetic}`) and their Unicode names in JavaScript. */
const BINARY: Record<string, string> = {
  ALPHABETIC: 'Alphabetic',
  LETTER: 'L',
  IDEOGRAPHIC: 'Ideographic',
  LOWERCASE: 'Lowercase',
  UPPERCASE: 'Uppercase',
  TITLECASE: 'Lt',
  PUNCTUATION: 'P',
  CONTROL: 'Cc',
  WHITE_SPACE: 'White_Space',
  WHITESPACE: 'White_Space',
  DIGIT: 'Nd',
  HEX_DIGIT: 'Hex_Digit',
  HEXDIGIT: 'Hex_Digit',
  ASSIGNED: 'Assigned',
  NONCHARACTER_CODE_POINT: 'Noncharacter_Code_Point',
};
/** Properties that Java matches differently under `CASE_INSENSITIVE`: refused there. */
export const CASED_PROPERTIES = new Set(['Lu', 'Ll', 'Lt', 'LC', 'Lowercase', 'Uppercase', 'Lower', 'Upper']);

const cache = new Map<string, CodePointSet>();

/** The code points V8's `\p{expression}` (with the `u` flag) matches; `undefined` if V8 knows no such name. */
function unicodeSet(expression: string): CodePointSet | undefined {
  const known = cache.get(expression);
  if (known !== undefined) return known;
  let test: RegExp;
  try {
    test = new RegExp(`^\\p{${expression}}$`, 'u');
  } catch {
    return undefined;
  }
  const ranges: [number, number][] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (!test.test(String.fromCodePoint(cp))) continue;
    const last = ranges.at(-1);
    if (last?.[1] === cp - 1) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  cache.set(expression, ranges);
  return ranges;
}

const titleCase = (name: string) =>
  name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('_');

/** What a `\p{name}` resolves to: its set and the Unicode name used, or why Java or the emulator refuses it. */
export type PropertyResult = { set: CodePointSet; name: string } | { error: string; unsupported: boolean };

/** Resolves the name inside `\p{…}` (or the single letter of `\pL`) as Java does. */
export function propertyClass(name: string): PropertyResult {
  const posix = POSIX[name];
  if (posix !== undefined) return { set: posix, name };
  const eq = name.indexOf('=');
  if (eq >= 0) {
    const key = name.slice(0, eq);
    const value = name.slice(eq + 1);
    if ((key === 'gc' || key === 'general_category') && CATEGORIES.has(value)) return category(value);
    if (key === 'sc' || key === 'script') return script(value, name);
    if (key === 'blk' || key === 'block')
      return { error: 'Unicode blocks are not emulated', unsupported: true };
    return { error: `Unknown Unicode property {name=<${key}>, value=<${value}>}`, unsupported: false };
  }
  if (CATEGORIES.has(name)) return category(name);
  if (name.startsWith('In')) return { error: 'Unicode blocks are not emulated', unsupported: true };
  if (name.startsWith('Is')) {
    const rest = name.slice(2);
    if (CATEGORIES.has(rest)) return category(rest);
    const binary = BINARY[rest.toUpperCase()];
    if (binary !== undefined) {
      const set = unicodeSet(binary);
      if (set !== undefined) return { set, name: binary };
    }
    return script(rest, name);
  }
  if (name.startsWith('java'))
    return { error: 'java.lang.Character classes are not emulated', unsupported: true };
  return { error: `Unknown character property name {${name}}`, unsupported: false };
}

function category(name: string): PropertyResult {
  const set = name === 'LC' ? unicodeSet('Cased_Letter') : unicodeSet(`General_Category=${name}`);
  return set === undefined ? { error: `Unknown category ${name}`, unsupported: true } : { set, name };
}

function script(value: string, name: string): PropertyResult {
  if (!/^[A-Za-z_]+$/.test(value))
    return { error: `Unknown character script name {${value}}`, unsupported: false };
  const set = unicodeSet(`Script=${titleCase(value)}`);
  return set === undefined
    ? { error: `Unknown character script name {${value}}`, unsupported: false }
    : { set, name };
}
