/**
 * Translates a `java.util.regex` pattern into a JavaScript pattern with the same meaning under
 * `String.matches` (the caller anchors it), for an engine run without flags: V8's linear-time fallback
 * engine takes none. Capturing groups become non-capturing (only verdicts matter); possessive quantifiers
 * and atomic groups become the lookahead + back-reference idiom `(?=(?<aN>X))\k<aN>`; line anchors and
 * Java's `.` are spelled out. Constructs the emulator cannot run exactly are refused as unsupported.
 */
import { type CodePointSet, renderSet, withAsciiCase } from './code-point-set.ts';
import { ANY, END_OF_INPUT, LINE_BREAK, LINE_END, LINE_START, NOT_TERMINATOR } from './java-anchors.ts';
import { readClass } from './java-char-class.ts';
import { readEscape } from './java-escape.ts';
import { readBraces, readGroupName, readInlineFlags } from './java-group-syntax.ts';
import { JavaPatternError, JavaScanner, removeQuoting } from './java-scanner.ts';

/** A translation: `source` to run, `guardSource` for the ReDoS guard (idioms and lookarounds left out). */
export interface JavaTranslation {
  source: string;
  guardSource: string;
  /** Whether V8's linear-time engine can still run `source` (no lookaround or back-reference in it). */
  linear: boolean;
}
/** A refusal: Java's syntax error, or (`unsupported`) a valid pattern the emulator does not run. */
export interface JavaRefusal {
  error: string;
  unsupported: boolean;
}

interface Piece {
  js: string;
  guard: string;
  /** One character or class: a possessive repetition of it never backtracks. */
  simple: boolean;
}

/** Options of {@link translateJavaPattern}. */
export interface TranslateOptions {
  /**
   * The pattern is run by `Matcher.find()`, not `String.matches`: a `$` or `\Z` ending a top-level branch
   * is no longer implied by the anchoring, so it is kept. Default `false`.
   */
  find?: boolean;
  /**
   * The pattern is compiled with `Pattern.CASE_INSENSITIVE` (US-ASCII letters, as without `UNICODE_CASE`):
   * case-insensitivity is on from the start, and an inline `(?-i)` turns it off as in Java. Default `false`.
   */
  caseInsensitive?: boolean;
}

/** Translates `pattern`, or says why Java (or the emulator) refuses it. Never throws. */
export function translateJavaPattern(
  pattern: string,
  options: TranslateOptions = {},
): JavaTranslation | JavaRefusal {
  const scanner = new JavaScanner(removeQuoting(pattern));
  scanner.flags.i = options.caseInsensitive === true;
  const translator = new Translator(scanner, options.find === true);
  try {
    return translator.translate();
  } catch (error) {
    if (error instanceof JavaPatternError) return { error: error.message, unsupported: error.unsupported };
    if (error instanceof RangeError) return { error: 'pattern nested too deeply', unsupported: true };
    throw error;
  }
}

class Translator {
  private atomics = 0;
  private linear = true;
  private readonly names = new Set<string>();

  private readonly s: JavaScanner;
  private readonly find: boolean;

  constructor(scanner: JavaScanner, find: boolean) {
    this.s = scanner;
    this.find = find;
  }

  translate(): JavaTranslation {
    const body = this.alternation(0);
    if (!this.s.atEnd) throw this.s.error("Unmatched closing ')'");
    return { source: body.js, guardSource: body.guard, linear: this.linear };
  }

  private alternation(depth: number): Piece {
    const branches = [this.sequence(depth)];
    while (this.s.peek() === 0x7c && !this.s.atEnd) {
      this.s.pos++;
      branches.push(this.sequence(depth));
    }
    return {
      js: branches.map((b) => b.js).join('|'),
      guard: branches.map((b) => b.guard).join('|'),
      simple: false,
    };
  }

  private sequence(depth: number): Piece {
    let js = '';
    let guard = '';
    while (!this.s.atEnd && this.s.peek() !== 0x7c && this.s.peek() !== 0x29) {
      const atom = this.atom(depth);
      if (atom === undefined) continue;
      const quantified = this.quantifier(atom);
      js += quantified.js;
      guard += quantified.guard;
    }
    return { js, guard, simple: false };
  }

  private set(set: CodePointSet): Piece {
    return { js: renderSet(set), guard: '[c]', simple: true };
  }

  private literal(cp: number): Piece {
    if (this.s.flags.i && /^[A-Za-z]$/.test(String.fromCodePoint(cp)))
      return this.set(withAsciiCase([[cp, cp]]));
    const char = String.fromCodePoint(cp);
    let js: string;
    if (/^[A-Za-z0-9 ]$/.test(char)) js = char;
    else if (cp >= 0x21 && cp <= 0x7e) js = `\\${char}`;
    else if (cp > 0xffff) js = renderSet([[cp, cp]]);
    else js = `\\u${cp.toString(16).padStart(4, '0')}`;
    return { js, guard: cp > 0x7e || cp < 0x20 ? '[c]' : js, simple: true };
  }

  /** A zero-width assertion spelled with lookaround: V8's linear-time engine cannot run it. */
  private lookaround(js: string): Piece {
    this.linear = false;
    return { js, guard: '', simple: false };
  }

  /** Whether the cursor is at the end of a top-level branch (an end anchor there is implied by `matches`). */
  private atBranchEnd(depth: number): boolean {
    return !this.find && depth === 0 && (this.s.atEnd || this.s.peek() === 0x7c);
  }

  private atom(depth: number): Piece | undefined {
    const ch = this.s.peek();
    const { flags } = this.s;
    switch (ch) {
      case 0x5b:
        return this.set(readClass(this.s, true));
      case 0x28:
        return this.group(depth);
      case 0x5e:
        this.s.pos++;
        return flags.m ? this.lookaround(LINE_START) : { js: '(?:^)', guard: '', simple: false };
      case 0x24:
        this.s.pos++;
        if (this.atBranchEnd(depth)) return { js: '', guard: '', simple: false };
        return this.lookaround(flags.m ? LINE_END : END_OF_INPUT);
      case 0x2e:
        this.s.pos++;
        return this.set(flags.s ? ANY : NOT_TERMINATOR);
      case 0x3f:
      case 0x2a:
      case 0x2b:
        this.s.pos++;
        throw this.s.error(`Dangling meta character '${String.fromCodePoint(ch)}'`);
      case 0x7b:
        // Java reads an empty atom here and lets the quantifier check the brace.
        return { js: '(?:)', guard: '', simple: false };
      case 0x5c: {
        const escape = readEscape(this.s, false);
        if ('cp' in escape) return this.literal(escape.cp);
        if ('set' in escape) return this.set(escape.set);
        if (escape.anchor === 'A') return { js: '(?:^)', guard: '', simple: false };
        if (escape.anchor === 'z') return { js: '(?:$)', guard: '', simple: false };
        // Java 17's `\R` backtracks like the alternation it stands for (it is not atomic).
        if (escape.anchor === 'R') return { js: `(?:${LINE_BREAK})`, guard: '[c]', simple: false };
        if (this.atBranchEnd(depth)) return { js: '', guard: '', simple: false };
        return this.lookaround(END_OF_INPUT);
      }
      default:
        this.s.pos++;
        return this.literal(ch);
    }
  }

  /** `X` run atomically: once it matched, backtracking never re-enters it. */
  private atomic(js: string, guard: string): Piece {
    this.linear = false;
    const name = `a${++this.atomics}`;
    return { js: `(?:(?=(?<${name}>${js}))\\k<${name}>)`, guard: `(?:${guard})`, simple: false };
  }

  private group(depth: number): Piece | undefined {
    const s = this.s;
    const saved = { ...s.flags };
    let kind: 'plain' | 'atomic' = 'plain';
    if (s.next() === 0x3f) {
      const ch = s.next();
      if (ch === 0x3d || ch === 0x21) throw s.unsupported('lookahead is not supported');
      if (ch === 0x3e) kind = 'atomic';
      else if (ch === 0x3c) {
        const first = s.next();
        if (first === 0x3d || first === 0x21) throw s.unsupported('lookbehind is not supported');
        readGroupName(s, this.names);
      } else if (ch !== 0x3a) {
        if (readInlineFlags(s)) return undefined;
      }
      s.pos++;
    }
    const body = this.alternation(depth + 1);
    if (s.peek() !== 0x29 || s.atEnd) throw s.error('Unclosed group');
    s.pos++;
    s.flags = saved;
    return kind === 'atomic'
      ? this.atomic(body.js, body.guard)
      : { js: `(?:${body.js})`, guard: `(?:${body.guard})`, simple: false };
  }

  private quantifier(atom: Piece): Piece {
    const s = this.s;
    const ch = s.peek();
    let q: string;
    if (ch === 0x2a || ch === 0x2b || ch === 0x3f) {
      q = String.fromCodePoint(ch);
      s.pos++;
    } else if (ch === 0x7b) {
      q = readBraces(s);
    } else return atom;
    const js = atom.simple ? atom.js : `(?:${atom.js})`;
    const guard = atom.simple ? atom.guard : `(?:${atom.guard})`;
    if (s.peek() === 0x3f) {
      s.pos++;
      return { js: `${js}${q}?`, guard: `${guard}${q}`, simple: false };
    }
    if (s.peek() === 0x2b) {
      s.pos++;
      const possessive = this.atomic(`${js}${q}`, `${guard}${q}`);
      return atom.simple ? { ...possessive, guard: atom.guard } : possessive;
    }
    return { js: `${js}${q}`, guard: `${guard}${q}`, simple: false };
  }
}
