/**
 * Parses a caller's pattern as Java's `java.util.regex` reads it (no flags: the upstream runs
 * `String.matches`), into the tree of `java-regex-ast.ts`. A construct that Java reads differently from the
 * ReDoS checker's dialect, or whose cost the checker cannot model, ends the parse with a
 * {@link PatternRefusal} that names it: possessive quantifiers, atomic groups, lookaround, inline flags,
 * back-references, `\Q…\E`, nested classes and class intersections. A pattern Java would reject is refused
 * too, so the upstream never sees it.
 */
import {
  JAVA_DOT,
  PatternRefusal,
  type CharNode,
  type RegexNode,
  type RepeatNode,
  type SequenceNode,
} from './java-regex-ast.ts';
import { literalJs, readEscape } from './java-regex-escapes.ts';

/** Deepest group nesting accepted: keeps the parser's recursion (and Java's) shallow. */
const MAX_GROUP_DEPTH = 32;
/** Largest `{n,m}` count accepted. */
const MAX_REPEAT_COUNT = 1000;

const BRACE_QUANTIFIER = /\{(\d{1,9})(?:(,)(\d{0,9}))?\}/y;
const GROUP_PREFIXES: readonly (readonly [RegExp, string, string])[] = [
  [/^\(\?[<]?[=!]/, 'lookaround', 'match the text itself instead'],
  [/^\(\?>/, 'atomic group', 'use a plain group "(…)" or a simpler pattern'],
  [/^\(\?[a-zA-Z-]+[:)]/, 'inline flag', 'write the cases out, e.g. [Hh][Oo][Mm][Ee] for (?i)home'],
];

function invalid(message: string, start: number, end: number): never {
  throw new PatternRefusal(message, { start, end }, 'fix the syntax', 'invalid');
}

class Parser {
  private index = 0;
  private depth = 0;
  private readonly pattern: string;
  /** The names of the named groups seen so far (`(?<name>`), each allowed once as in Java. */
  private readonly groupNames = new Set<string>();

  constructor(pattern: string) {
    this.pattern = pattern;
  }

  parse(): RegexNode {
    const tree = this.alternation();
    if (this.index < this.pattern.length) invalid('unmatched ")"', this.index, this.index + 1);
    return tree;
  }

  private alternation(): RegexNode {
    const start = this.index;
    const branches = [this.sequence()];
    while (this.pattern[this.index] === '|') {
      this.index += 1;
      branches.push(this.sequence());
    }
    return branches.length === 1 && branches[0] !== undefined
      ? branches[0]
      : { type: 'alternation', branches, start, end: this.index };
  }

  private sequence(): SequenceNode {
    const start = this.index;
    const items: RegexNode[] = [];
    for (;;) {
      const char = this.pattern[this.index];
      if (char === undefined || char === '|' || char === ')') break;
      items.push(this.quantified(this.atom()));
    }
    return { type: 'sequence', items, start, end: this.index };
  }

  private atom(): RegexNode {
    const start = this.index;
    const char = this.pattern[start] ?? '';
    switch (char) {
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '.':
        this.index += 1;
        // Java's `.` also stops at `\u0085` (NEL), which ECMAScript's `.` matches.
        return { type: 'char', js: JAVA_DOT, start, end: this.index };
      case '^':
      case '$':
        this.index += 1;
        return { type: 'assert', js: char, start, end: this.index };
      case '*':
      case '+':
      case '?':
      case '{':
        return invalid(`quantifier "${char}" with nothing to repeat`, start, start + 1);
      case '\\': {
        const escape = readEscape(this.pattern, start, false);
        this.index = escape.end;
        if (escape.kind === 'assert') return { type: 'assert', js: escape.js, start, end: this.index };
        if (escape.kind === 'class') return { type: 'char', js: escape.js, start, end: this.index };
        return literalNode(escape.codePoint, start, this.index);
      }
      default: {
        const codePoint = this.pattern.codePointAt(start) ?? 0;
        this.index += codePoint > 0xffff ? 2 : 1;
        return literalNode(codePoint, start, this.index);
      }
    }
  }

  private group(): RegexNode {
    const start = this.index;
    const rest = this.pattern.slice(start, start + 40);
    for (const [prefix, construct, advice] of GROUP_PREFIXES) {
      const found = prefix.exec(rest);
      if (found) throw new PatternRefusal(construct, { start, end: start + found[0].length }, advice);
    }
    if (rest.startsWith('(?:')) this.index += 3;
    else if (rest.startsWith('(?<')) {
      const name = /^\(\?<[a-zA-Z][a-zA-Z0-9]*>/.exec(rest);
      if (!name) invalid('malformed named group', start, start + 3);
      // Java refuses a name defined twice ("Named capturing group <n> is already defined"): sent, the
      // upstream would answer an error for what is the caller's mistake.
      if (this.groupNames.has(name[0])) invalid('group name defined twice', start, start + name[0].length);
      this.groupNames.add(name[0]);
      this.index += name[0].length;
    } else if (rest.startsWith('(?')) invalid('unknown group "(?"', start, start + 2);
    else this.index += 1;
    this.depth += 1;
    if (this.depth > MAX_GROUP_DEPTH) {
      throw new PatternRefusal(
        `groups nested more than ${MAX_GROUP_DEPTH} deep`,
        { start, end: this.index },
        'flatten the pattern',
      );
    }
    const body = this.alternation();
    this.depth -= 1;
    if (this.pattern[this.index] !== ')') invalid('unclosed group "("', start, this.index);
    this.index += 1;
    return { type: 'group', body, start, end: this.index };
  }

  private charClass(): CharNode {
    const start = this.index;
    this.index += 1;
    let js = '[';
    if (this.pattern[this.index] === '^') {
      js += '^';
      this.index += 1;
    }
    if (this.pattern[this.index] === ']') {
      throw new PatternRefusal(
        '"]" first in a class',
        { start, end: this.index + 1 },
        'write it as \\] instead',
      );
    }
    let previous: number | undefined;
    while (this.pattern[this.index] !== ']') {
      const at = this.index;
      const char = this.pattern[at];
      if (char === undefined) invalid('unclosed class "["', start, at);
      if (char === '[' || (char === '&' && this.pattern[at + 1] === '&')) {
        throw new PatternRefusal(
          char === '[' ? 'nested class' : 'class intersection',
          { start: at, end: at + (char === '[' ? 1 : 2) },
          'write a single class, escaping "[" and "&" inside it as \\[ and \\&',
        );
      }
      if (
        char === '-' &&
        previous !== undefined &&
        this.pattern[at + 1] !== ']' &&
        this.pattern[at + 1] !== '['
      ) {
        this.index += 1;
        const upper = this.classMember();
        if (upper.kind !== 'literal' || upper.codePoint < previous)
          invalid('bad class range', at - 1, this.index);
        js += `-${literalJs(upper.codePoint)}`;
        previous = undefined;
        continue;
      }
      const member = this.classMember();
      js += member.kind === 'literal' ? literalJs(member.codePoint) : member.js;
      previous = member.kind === 'literal' ? member.codePoint : undefined;
    }
    this.index += 1;
    return { type: 'char', js: `${js}]`, start, end: this.index };
  }

  private classMember(): { kind: 'literal'; codePoint: number } | { kind: 'class'; js: string } {
    const at = this.index;
    if (this.pattern[at] === '\\') {
      const escape = readEscape(this.pattern, at, true);
      this.index = escape.end;
      if (escape.kind === 'assert') invalid('assertion inside a class', at, escape.end);
      return escape;
    }
    const codePoint = this.pattern.codePointAt(at) ?? 0;
    this.index += codePoint > 0xffff ? 2 : 1;
    return { kind: 'literal', codePoint };
  }

  private quantified(body: RegexNode): RegexNode {
    const start = body.start;
    const char = this.pattern[this.index];
    let min: number;
    let max: number;
    if (char === '*' || char === '+' || char === '?') {
      [min, max] = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1];
      this.index += 1;
    } else if (char === '{') {
      BRACE_QUANTIFIER.lastIndex = this.index;
      const found = BRACE_QUANTIFIER.exec(this.pattern);
      if (!found) invalid('malformed count "{…}"', this.index, this.index + 1);
      min = Number(found[1]);
      max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
      if (min > max) invalid('count "{n,m}" with n > m', this.index, this.index + found[0].length);
      if (Math.max(min, Number.isFinite(max) ? max : 0) > MAX_REPEAT_COUNT) {
        throw new PatternRefusal(
          `count above ${MAX_REPEAT_COUNT}`,
          { start: this.index, end: this.index + found[0].length },
          'use a smaller count or "*"',
        );
      }
      this.index += found[0].length;
    } else {
      return body;
    }
    if (body.type === 'assert') invalid('quantified assertion', start, this.index);
    const modifier = this.pattern[this.index];
    if (modifier === '+') {
      throw new PatternRefusal(
        'possessive quantifier',
        { start, end: this.index + 1 },
        'use a plain quantifier',
      );
    }
    const lazy = modifier === '?';
    if (lazy) this.index += 1;
    const node: RepeatNode = { type: 'repeat', body, min, max, lazy, start, end: this.index };
    const next = this.pattern[this.index];
    if (next === '*' || next === '+' || next === '?' || next === '{') {
      invalid(`quantifier "${next}" with nothing to repeat`, this.index, this.index + 1);
    }
    return node;
  }
}

function literalNode(codePoint: number, start: number, end: number): CharNode {
  return { type: 'char', js: literalJs(codePoint), literal: codePoint, start, end };
}

/** Parses `pattern` as Java reads it; throws a {@link PatternRefusal} naming what cannot be accepted. */
export function parseJavaRegex(pattern: string): RegexNode {
  return new Parser(pattern).parse();
}
