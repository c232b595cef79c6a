/**
 * Java's bracketed character classes (`Pattern.clazz` and `Pattern.range` in the JDK), followed step by
 * step: nested classes are unions, `&&` intersects, `^` right after `[` negates the whole class, a `]` first
 * in a class is literal, and `(?i)` adds the other ASCII case of letters and ranges.
 */
import { type CodePointSet, complement, intersect, setOf, union, withAsciiCase } from './code-point-set.ts';
import { readEscape } from './java-escape.ts';
import type { JavaScanner } from './java-scanner.ts';

const LEFT = 0x5b; // [
const RIGHT = 0x5d; // ]
const AMP = 0x26; // &
const DASH = 0x2d; // -
const BACKSLASH = 0x5c;

/** Reads a class; the cursor is at its `[` (or, when not `consume`, just before its first element). */
export function readClass(scanner: JavaScanner, consume: boolean): CodePointSet {
  let prev: CodePointSet | undefined;
  let curr: CodePointSet | undefined;
  // Java collects single characters below 256 apart ("bits") and joins them to the rest late.
  let bits: CodePointSet = [];
  let hasBits = false;
  let negated = false;
  let ch = scanner.next();
  if (ch === 0x5e && scanner.at(scanner.pos - 1) === LEFT) {
    ch = scanner.next();
    negated = true;
  }
  for (;;) {
    if (ch === LEFT) {
      curr = readClass(scanner, true);
      prev = prev === undefined ? curr : union(prev, curr);
      ch = scanner.peek();
      continue;
    }
    if (ch === AMP) {
      ch = scanner.next();
      if (ch === AMP) {
        ch = scanner.next();
        let right: CodePointSet | undefined;
        while (ch !== RIGHT && ch !== AMP) {
          if (ch === LEFT) {
            const nested = readClass(scanner, true);
            right = right === undefined ? nested : union(right, nested);
          } else {
            scanner.unread();
            right = readClass(scanner, false);
          }
          ch = scanner.peek();
        }
        if (hasBits) {
          if (prev === undefined) prev = curr = bits;
          else prev = union(prev, bits);
          hasBits = false;
        }
        if (right !== undefined) curr = right;
        if (prev === undefined) {
          if (right === undefined) throw scanner.error('Bad class syntax');
          prev = right;
        } else {
          // Java would throw a NullPointerException here; no real pattern gets this far.
          if (curr === undefined) throw scanner.unsupported('this class intersection is not emulated');
          prev = intersect(prev, curr);
        }
        continue;
      }
      scanner.unread();
    } else if (ch === 0 && scanner.atEnd) {
      throw scanner.error('Unclosed character class');
    } else if (ch === RIGHT && (prev !== undefined || hasBits)) {
      if (consume) scanner.next();
      let result = prev ?? bits;
      if (prev !== undefined && hasBits) result = union(prev, bits);
      return negated ? complement(result) : result;
    }
    const element = readRange(scanner);
    if (typeof element === 'number') {
      bits = union(bits, single(scanner, element));
      hasBits = true;
      curr = undefined;
    } else {
      curr = element;
      prev = prev === undefined ? curr : union(prev, curr);
    }
    ch = scanner.peek();
  }
}

const single = (scanner: JavaScanner, cp: number): CodePointSet =>
  scanner.flags.i ? withAsciiCase(setOf([cp, cp])) : setOf([cp, cp]);

/** One element: a set, or a single character below 256 (Java's "bits"), as a number. */
function readRange(scanner: JavaScanner): CodePointSet | number {
  let ch = scanner.peek();
  if (ch === BACKSLASH) {
    const escape = readEscape(scanner, true);
    if ('set' in escape) return escape.set;
    if (!('cp' in escape)) throw scanner.error('Illegal/unsupported escape sequence');
    ch = escape.cp;
  } else {
    scanner.pos++;
  }
  if (scanner.peek() === DASH) {
    const endRange = scanner.at(scanner.pos + 1);
    if (endRange !== LEFT && endRange !== RIGHT) {
      scanner.pos++;
      let m = scanner.peek();
      if (m === BACKSLASH) {
        const escape = readEscape(scanner, true);
        m = 'cp' in escape ? escape.cp : -1;
      } else {
        scanner.pos++;
      }
      if (m < ch) throw scanner.error('Illegal character range');
      const range = setOf([ch, m]);
      return scanner.flags.i ? withAsciiCase(range) : range;
    }
  }
  return ch < 256 ? ch : single(scanner, ch);
}
