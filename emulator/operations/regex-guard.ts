/**
 * Screens client regular expressions before the emulator runs them. A backtracking engine takes
 * exponential time on patterns such as `(a+)+$` or `(a|a)*b`: one request must not stall the event loop.
 *
 * The screen is a heuristic over the pattern text (JavaScript syntax, no `u` flag): the emulator passes it
 * the translation of the client's Java pattern with possessive and atomic parts as plain groups and
 * lookaround anchors left out (emulator/java-pattern/java-pattern.ts), and says whether the real translation still
 * lets the linear-time engine take over:
 * - a repeated group (`*`, `+`, `{n,m}` with m > 1) may not contain a quantifier of its own, nor an
 *   alternation whose branches could overlap (only literal, prefix-free branches such as `(GET|PUT)+` pass);
 * - backreferences, lookarounds and modifier groups are refused: V8's linear-time engine, which the server
 *   enables as a fallback for patterns that backtrack too much, cannot run them;
 * - that engine cannot run counts above 16 either, so a pattern with such a count may hold only one
 *   variable-length repetition (polynomial backtracking needs two);
 * - counts above 1000 are refused, and so are patterns longer than 5000 characters.
 */

/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 5000;
/** Largest `{n,m}` bound accepted. */
const MAX_REPETITION = 1000;
/** Largest count V8's linear-time engine runs (its `kMaxReplicationFactor`). */
const MAX_LINEAR_COUNT = 16;

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
const GROUP_PREFIX = /^\(\?(?:<[A-Za-z_$][\w$]*>|:)/;

/**
 * Answers why `pattern` is refused, or `undefined` when it may be compiled and run. Without
 * `linearFallback` (the pattern that will run holds lookaround or back-references, so V8's linear-time
 * engine cannot take over) it is held to the rule for counts above 16: one variable-length repetition.
 */
export function rejectPattern(pattern: string, linearFallback = true): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
  // The innermost open group (the whole pattern at the bottom) and the groups enclosing it.
  let top = newFrame();
  const enclosing: Frame[] = [];
  // The atom a following quantifier applies to: a closed group (its frame), another atom, or none.
  let lastAtom: Frame | 'atom' | undefined;
  // Repetitions whose length varies (`*`, `+`, `?`, `{n,m}` with n < m), and whether a count is above 16.
  let variableRepetitions = 0;
  let largeCount = false;

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
      // Skip a group's prefix (`(?:`, `(?<name>`), so that its `?` is not read as a quantifier.
      const prefix = GROUP_PREFIX.exec(pattern.slice(i, i + 80));
      if (prefix !== null) i += prefix[0].length - 1;
      else if (pattern[i + 1] === '?') return 'only (?:…) and (?<name>…) groups are supported';
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
      let [min, max] = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1];
      if (brace !== null) {
        min = Number(brace[1]);
        max = brace[2] === undefined ? min : brace[3] === '' ? Infinity : Number(brace[3]);
        if (min > MAX_REPETITION || (max !== Infinity && max > MAX_REPETITION)) {
          return `repetition count above ${MAX_REPETITION}`;
        }
        i += brace[0].length - 1;
      }
      if (pattern[i + 1] === '?') i++;
      if (min < max) variableRepetitions++;
      largeCount ||= min > MAX_LINEAR_COUNT || (max !== Infinity && max > MAX_LINEAR_COUNT);
      if (max > 1 && typeof lastAtom === 'object') {
        if (lastAtom.quantified) return 'nested quantifiers (such as (a+)+) are not supported';
        if (lastAtom.ambiguous)
          return 'repeated overlapping alternatives (such as (a|aa)+) are not supported';
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
  if (!linearFallback && variableRepetitions > 1) {
    return 'possessive quantifiers, atomic groups, \\R and inner line anchors allow only one other variable-length repetition';
  }
  if (largeCount && variableRepetitions > 1) {
    return `a count above ${MAX_LINEAR_COUNT} cannot be combined with other variable-length repetition`;
  }
  return undefined;
}
