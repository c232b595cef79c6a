/**
 * Screens client regular expressions before the emulator runs them. A backtracking engine takes
 * exponential time on patterns such as `(a+)+$` or `(a|a)*b`: one request must not stall the event loop.
 *
 * The screen is a heuristic over the pattern text (JavaScript syntax, no `u` flag):
 * - a repeated group (`*`, `+`, `{n,m}` with m > 1) may not contain a quantifier of its own, nor an
 *   alternation whose branches could overlap (only literal, prefix-free branches such as `(GET|PUT)+` pass);
 * - backreferences and lookarounds are refused (they defeat the linear-time fallback the server enables);
 * - counted repetitions are capped, and so is the pattern's length.
 */

/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 5000;
/** Largest `{n,m}` bound accepted. */
const MAX_REPETITION = 1000;

interface Frame {
  /** A quantifier appears somewhere inside this group. */
  quantified: boolean;
  /** Something inside could match the same text in more than one way. */
  ambiguous: boolean;
  alternatives: string[];
  /** The current branch so far, while it is a plain literal; `undefined` once it is not. */
  branch: string | undefined;
  hasAlternation: boolean;
  /** Some finished branch was not a plain literal. */
  nonLiteralBranch: boolean;
}

const newFrame = (): Frame => ({
  quantified: false,
  ambiguous: false,
  alternatives: [],
  branch: '',
  hasAlternation: false,
  nonLiteralBranch: false,
});

/** Whether no branch is a prefix of another (then the repeated parse of a text is unique). */
function prefixFree(branches: readonly string[]): boolean {
  for (let i = 0; i < branches.length; i++) {
    for (let j = 0; j < branches.length; j++) {
      if (i !== j && (branches[j] ?? '').startsWith(branches[i] ?? '')) return false;
    }
  }
  return true;
}

const BRACE_QUANTIFIER = /^\{(\d+)(,(\d*))?\}/;
const GROUP_PREFIX = /^\(\?(?:<[A-Za-z_$][\w$]*>|[a-z-]*:)/;

/** Answers why `pattern` is refused, or `undefined` when it may be compiled and run. */
export function rejectPattern(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
  // The innermost open group (the whole pattern at the bottom) and the groups enclosing it.
  let top = newFrame();
  const enclosing: Frame[] = [];
  // The atom a following quantifier applies to: a closed group (its frame), another atom, or none.
  let lastAtom: Frame | 'atom' | undefined;

  const nonLiteral = (): void => {
    top.branch = undefined;
  };
  const endBranch = (frame: Frame): void => {
    if (frame.branch === undefined) frame.nonLiteralBranch = true;
    else frame.alternatives.push(frame.branch);
  };

  for (let i = 0; i < pattern.length; i++) {
    const char = pattern.charAt(i);
    const brace = char === '{' ? BRACE_QUANTIFIER.exec(pattern.slice(i, i + 24)) : null;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))
        return 'backreferences are not supported';
      if (/[A-Za-z0-9]/.test(next)) nonLiteral();
      else if (top.branch !== undefined) top.branch += next;
      i++;
      lastAtom = 'atom';
    } else if (char === '[') {
      // A class ends at the first unescaped `]` (in JavaScript `[]` is an empty class, and `[` is literal inside).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      nonLiteral();
      lastAtom = 'atom';
    } else if (char === '(') {
      if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) return 'lookahead is not supported';
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i))
        return 'lookbehind is not supported';
      // Skip a group's prefix (`(?:`, `(?<name>`, `(?i:`), so that its `?` is not read as a quantifier.
      const prefix = GROUP_PREFIX.exec(pattern.slice(i, i + 80));
      if (prefix !== null) i += prefix[0].length - 1;
      nonLiteral();
      enclosing.push(top);
      top = newFrame();
      lastAtom = undefined;
    } else if (char === ')') {
      const parent = enclosing.pop();
      if (parent === undefined) return 'unbalanced parenthesis';
      const group = top;
      endBranch(group);
      if (group.hasAlternation && (group.nonLiteralBranch || !prefixFree(group.alternatives)))
        group.ambiguous = true;
      top = parent;
      top.quantified ||= group.quantified;
      top.ambiguous ||= group.ambiguous;
      lastAtom = group;
    } else if (char === '|') {
      endBranch(top);
      top.hasAlternation = true;
      top.branch = '';
      lastAtom = undefined;
    } else if (char === '*' || char === '+' || char === '?' || brace !== null) {
      let repeating = char !== '?';
      if (brace !== null) {
        const min = Number(brace[1]);
        const max = brace[2] === undefined ? min : brace[3] === '' ? Infinity : Number(brace[3]);
        if (min > MAX_REPETITION || (max !== Infinity && max > MAX_REPETITION)) {
          return `repetition count above ${MAX_REPETITION}`;
        }
        repeating = max > 1;
        i += brace[0].length - 1;
      }
      if (pattern[i + 1] === '?') i++;
      if (repeating && typeof lastAtom === 'object' && (lastAtom.quantified || lastAtom.ambiguous)) {
        return 'nested quantifiers (such as (a+)+) are not supported';
      }
      top.quantified = true;
      nonLiteral();
      lastAtom = 'atom';
    } else {
      if (char === '.' || char === '^' || char === '$') nonLiteral();
      else if (top.branch !== undefined) top.branch += char;
      lastAtom = 'atom';
    }
  }
  return undefined;
}
