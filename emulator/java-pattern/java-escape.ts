/**
 * Java's backslash escapes (`Pattern.escape` in the JDK): a character, a class, or (outside a class) an
 * anchor, each checked and refused as Java refuses it.
 */
import { type CodePointSet, complement, setOf } from './code-point-set.ts';
import { CASED_PROPERTIES, predefinedClass, propertyClass } from './java-property-class.ts';
import type { JavaScanner } from './java-scanner.ts';

/** A parsed escape: one code point, a set of them, or an anchor (`\A`, `\z`, `\Z`, `\R`, …). */
export type Escape = { cp: number } | { set: CodePointSet } | { anchor: 'A' | 'z' | 'Z' | 'R' };

const CHARS: Partial<Record<string, number>> = { t: 9, n: 10, r: 13, f: 12, a: 7, e: 27 };
const isHex = (cp: number) => /^[0-9a-fA-F]$/.test(String.fromCodePoint(cp));
const isOctal = (cp: number) => cp >= 0x30 && cp <= 0x37;

/** Reads the escape at the cursor (a backslash) and moves past it. */
export function readEscape(scanner: JavaScanner, inClass: boolean): Escape {
  scanner.pos++;
  if (scanner.atEnd) throw scanner.error('Unexpected internal error');
  const cp = scanner.read();
  const letter = String.fromCodePoint(cp);
  if (!/^[A-Za-z0-9]$/.test(letter)) return { cp };
  const known = CHARS[letter];
  if (known !== undefined) return { cp: known };
  const predefined = predefinedClass(letter);
  if (predefined !== undefined) return { set: predefined };
  switch (letter) {
    case '0':
      return { cp: octal(scanner) };
    case 'x':
      return { cp: hex(scanner) };
    case 'u':
      return { cp: unicode(scanner) };
    case 'c':
      // (`atEnd` again: the check above ran before the letter was read.)
      if (scanner.pos >= scanner.points.length) throw scanner.error('Illegal control escape sequence');
      return { cp: scanner.read() ^ 64 };
    case 'p':
    case 'P':
      return { set: property(scanner, letter === 'P') };
    case 'A':
    case 'G':
    case 'z':
    case 'Z':
    case 'R':
      if (inClass) break;
      return { anchor: letter === 'G' ? 'A' : letter };
    case 'b':
    case 'B':
      if (inClass) break;
      throw scanner.unsupported('word boundaries (\\b, \\B) are not emulated');
    case 'k':
    case 'N':
    case 'X':
      if (inClass) break;
      throw scanner.unsupported(`\\${letter} is not emulated`);
    default:
      if (/[1-9]/.test(letter) && !inClass) throw scanner.unsupported('back-references are not supported');
  }
  throw scanner.error('Illegal/unsupported escape sequence');
}

function octal(scanner: JavaScanner): number {
  const n = scanner.read();
  if (!isOctal(n)) throw scanner.error('Illegal octal escape sequence');
  const m = scanner.peek();
  if (!isOctal(m)) return n - 0x30;
  scanner.pos++;
  const o = scanner.peek();
  if (isOctal(o) && n <= 0x33) {
    scanner.pos++;
    return (n - 0x30) * 64 + (m - 0x30) * 8 + (o - 0x30);
  }
  return (n - 0x30) * 8 + (m - 0x30);
}

function hex(scanner: JavaScanner): number {
  const first = scanner.read();
  if (isHex(first)) {
    const second = scanner.read();
    if (isHex(second)) return parseInt(String.fromCodePoint(first, second), 16);
  } else if (first === 0x7b && isHex(scanner.peek())) {
    let value = 0;
    while (isHex(scanner.peek())) {
      value = value * 16 + parseInt(String.fromCodePoint(scanner.read()), 16);
      if (value > 0x10ffff) throw scanner.error('Hexadecimal codepoint is too big');
    }
    if (scanner.read() !== 0x7d) throw scanner.error('Unclosed hexadecimal escape sequence');
    return value;
  }
  throw scanner.error('Illegal hexadecimal escape sequence');
}

function unicode(scanner: JavaScanner): number {
  const four = (): number => {
    let value = 0;
    for (let k = 0; k < 4; k++) {
      const digit = scanner.read();
      if (!isHex(digit)) throw scanner.error('Illegal Unicode escape sequence');
      value = value * 16 + parseInt(String.fromCodePoint(digit), 16);
    }
    return value;
  };
  const value = four();
  // Java joins an escaped surrogate pair into one code point.
  if (value >= 0xd800 && value <= 0xdbff && scanner.peek() === 0x5c && scanner.at(scanner.pos + 1) === 0x75) {
    const save = scanner.pos;
    scanner.pos += 2;
    const low = four();
    if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((value - 0xd800) << 10) + (low - 0xdc00);
    scanner.pos = save;
  }
  return value;
}

function property(scanner: JavaScanner, negated: boolean): CodePointSet {
  let name: string;
  if (scanner.peek() === 0x7b) {
    const close = scanner.points.indexOf(0x7d, scanner.pos);
    if (close < 0) throw scanner.error('Unclosed character family');
    name = String.fromCodePoint(...scanner.points.slice(scanner.pos + 1, close));
    scanner.pos = close + 1;
  } else {
    if (scanner.atEnd) throw scanner.error('Illegal character family');
    name = String.fromCodePoint(scanner.read());
  }
  if (name.startsWith('^')) {
    name = name.slice(1);
    negated = !negated;
  }
  const result = propertyClass(name);
  if ('error' in result) {
    throw result.unsupported ? scanner.unsupported(result.error) : scanner.error(result.error);
  }
  if (scanner.flags.i && CASED_PROPERTIES.has(result.name)) {
    throw scanner.unsupported(`\\p{${name}} under (?i) is not emulated`);
  }
  return negated ? complement(result.set) : setOf(...result.set);
}
