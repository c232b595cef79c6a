/**
 * Java's line anchors and line-terminator classes spelled out for JavaScript without flags. Java's line
 * terminators are \n, \r, \r\n, U+0085, U+2028 and U+2029 (JavaScript's `.` and `$` know no U+0085, and
 * never treat \r\n as one), and a `$` never matches between the \r and the \n of a pair.
 */
import { type CodePointSet, setOf } from './code-point-set.ts';

const TERMINATORS = '\\n\\r\\u0085\\u2028\\u2029';
/** Java's `.` under `(?s)`. */
export const ANY = setOf([0, 0x10ffff]);
/** Java's `.`: anything but a line terminator. */
export const NOT_TERMINATOR: CodePointSet = setOf(
  [0, 0x09],
  [0x0b, 0x0c],
  [0x0e, 0x84],
  [0x86, 0x2027],
  [0x202a, 0x10ffff],
);
/** Java's `$` and `\Z` without `(?m)`: at the end, or before a line terminator that ends the input. */
export const END_OF_INPUT = `(?:(?=(?:\\r\\n|[${TERMINATORS}])?$)(?<!\\r(?=\\n)))`;
/** `$` under `(?m)`: before any line terminator, or at the end. */
export const LINE_END = `(?:(?=[${TERMINATORS}]|$)(?<!\\r(?=\\n)))`;
/** `^` under `(?m)`: at the start, or after a line terminator that does not end the input. */
export const LINE_START = `(?:^|(?<=[\\n\\u0085\\u2028\\u2029]|\\r(?!\\n))(?!$))`;
/** Java 17's `\R` (an alternation: it backtracks). */
export const LINE_BREAK = `\\r\\n|[\\n\\u000b\\u000c\\r\\u0085\\u2028\\u2029]`;
