/**
 * The parts of Java's group and quantifier syntax the translator checks as Java does (`Pattern.group0`,
 * `Pattern.addFlag`, `Pattern.closure` in the JDK), so a pattern Java refuses is refused here too.
 */
import type { JavaScanner } from './java-scanner.ts';

/** Reads a group name after `(?<` up to its `>`, checked as Java checks it; `names` holds those seen. */
export function readGroupName(s: JavaScanner, names: Set<string>): void {
  let name = '';
  if (!/^[A-Za-z]$/.test(String.fromCodePoint(s.peek()))) {
    throw s.error('capturing group name does not start with a Latin letter');
  }
  while (/^[A-Za-z0-9]$/.test(String.fromCodePoint(s.peek()))) name += String.fromCodePoint(s.read());
  if (s.peek() !== 0x3e) throw s.error("named capturing group is missing trailing '>'");
  if (names.has(name)) throw s.error(`Named capturing group <${name}> is already defined`);
  names.add(name);
}

/**
 * Reads `(?idmsux-idmsux)` or the flags of `(?flags:`, setting them on the scanner; answers whether it was
 * a flags-only group. `d`, `x`, `c`, `U` and `(?iu)` are valid Java the emulator does not run.
 */
export function readInlineFlags(s: JavaScanner): boolean {
  let on = true;
  for (; ; s.pos++) {
    const flag = String.fromCodePoint(s.peek());
    if (flag === '-' && on) on = false;
    else if (flag === 'i' || flag === 's' || flag === 'm' || flag === 'u') s.flags[flag] = on;
    else if (flag.length === 1 && 'dxcU'.includes(flag))
      throw s.unsupported(`the inline flag (?${flag}) is not emulated`);
    else break;
  }
  if (s.flags.i && s.flags.u) throw s.unsupported('Unicode case folding, (?iu), is not emulated');
  if (s.peek() === 0x29) {
    s.pos++;
    return true;
  }
  if (s.peek() !== 0x3a) throw s.error('Unknown inline modifier');
  return false;
}

/** Reads `{n}`, `{n,}` or `{n,m}` at the cursor, checked as Java checks it; answers it in JavaScript's syntax. */
export function readBraces(s: JavaScanner): string {
  const digit = (cp: number) => cp >= 0x30 && cp <= 0x39;
  if (!digit(s.at(s.pos + 1))) throw s.error('Illegal repetition');
  s.pos++;
  let min = '';
  while (digit(s.peek())) min += String.fromCodePoint(s.read());
  let max: string | undefined = min;
  if (s.peek() === 0x2c) {
    s.pos++;
    max = '';
    while (digit(s.peek())) max += String.fromCodePoint(s.read());
  }
  if (s.read() !== 0x7d) throw s.error('Unclosed counted closure');
  if (max !== '' && Number(max) < Number(min)) throw s.error('Illegal repetition range');
  if (Number(min) > 0x7fffffff || Number(max) > 0x7fffffff) throw s.error('Illegal repetition range');
  return max === min ? `{${min}}` : `{${min},${max}}`;
}
