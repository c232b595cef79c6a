/**
 * What the pattern guard reads off a parsed Java pattern without the ReDoS checker: how many ways its
 * alternatives and counts multiply (which the checker, measuring cost against the input's length, calls
 * constant), the shapes the gateway builds itself, and the checker's source with a map back to the caller's.
 */
import { JAVA_DOT, childrenOf, type RegexNode, type RepeatNode, type Span } from './java-regex-ast.ts';

/** Above this, path counts are not told apart. */
const SATURATED = 1e12;

/**
 * An upper bound on the ways a backtracking matcher can walk the pattern for one starting position,
 * counting each unbounded repetition once: `(a|a)(a|a)…` or `(a|b){30}` multiply to 2^n paths, which Java
 * tries one after another on a subject that fails at the end, however short.
 */
export function pathCount(node: RegexNode): number {
  switch (node.type) {
    case 'char':
    case 'assert':
      return 1;
    case 'group':
      return pathCount(node.body);
    case 'sequence':
      return node.items.reduce((product, item) => Math.min(SATURATED, product * pathCount(item)), 1);
    case 'alternation':
      return Math.min(
        SATURATED,
        node.branches.reduce((sum, branch) => sum + pathCount(branch), 0),
      );
    case 'repeat': {
      const body = pathCount(node.body);
      // How often an unbounded loop turns is the checker's business: count its body's paths once.
      if (!Number.isFinite(node.max)) return Math.min(SATURATED, body ** Math.max(node.min, 1));
      // Each count from min to max is a choice; each repetition multiplies the body's paths.
      const top = node.max;
      let total = 0;
      for (let count = node.min; count <= top && total < SATURATED; count += 1) {
        total += Math.min(SATURATED, body ** count);
      }
      return Math.min(SATURATED, total);
    }
  }
}

/** Whether some repetition in the pattern is unbounded (`*`, `+`, `{n,}`). */
export function hasUnboundedRepeat(node: RegexNode): boolean {
  switch (node.type) {
    case 'char':
    case 'assert':
      return false;
    case 'group':
      return hasUnboundedRepeat(node.body);
    case 'repeat':
      return !Number.isFinite(node.max) || hasUnboundedRepeat(node.body);
    case 'sequence':
      return node.items.some(hasUnboundedRepeat);
    case 'alternation':
      return node.branches.some(hasUnboundedRepeat);
  }
}

function isDotStar(node: RegexNode | undefined): boolean {
  return (
    node?.type === 'repeat' &&
    node.min === 0 &&
    node.max === Infinity &&
    node.body.type === 'char' &&
    node.body.js === JAVA_DOT
  );
}

/** Most repetitions of a group accepted: Java's matcher spends a stack frame on each one. */
export const MAX_GROUP_REPEAT = 100;

/**
 * The first repetition of more than one character's worth (a group, a sequence, an alternation) that may
 * turn more than {@link MAX_GROUP_REPEAT} times. Java repeats a single character or class in a loop, but a
 * group recursively, one stack frame per turn: `(a|b)*` or `\w+(?:\.\w+)*` overflow its stack (a
 * StackOverflowError, answered as a 500) on values of a few thousand characters, however linear the
 * pattern.
 */
export function deepGroupRepeat(node: RegexNode): RepeatNode | undefined {
  switch (node.type) {
    case 'char':
    case 'assert':
      return undefined;
    case 'repeat':
      if (node.body.type !== 'char' && node.max > MAX_GROUP_REPEAT) return node;
      return deepGroupRepeat(node.body);
    case 'group':
      return deepGroupRepeat(node.body);
    case 'sequence':
      return node.items.map(deepGroupRepeat).find((found) => found !== undefined);
    case 'alternation':
      return node.branches.map(deepGroupRepeat).find((found) => found !== undefined);
  }
}

/**
 * `.*x.*`: quadratic in Java on a value that holds many `x` before a line terminator (which `.` does not
 * cross), whatever `x` is. The `contains` operator says the same in linear time.
 */
export function isDotStarSandwich(node: RegexNode): boolean {
  if (node.type !== 'sequence' || node.items.length < 3) return false;
  return isDotStar(node.items[0]) && isDotStar(node.items.at(-1));
}

/**
 * Literal runs as callers write `equals`, `startsWith` and `endsWith` by hand: single characters (literals
 * or classes such as `[Hh]`), with a leading or a trailing `.*` but not both. Java spends at most O(n·m)
 * on them for a subject of n characters and m pattern characters.
 */
export function isLiteralRunShape(node: RegexNode): boolean {
  const items = node.type === 'sequence' ? [...node.items] : [node];
  const leading = isDotStar(items[0]);
  if (leading) items.shift();
  if (isDotStar(items.at(-1))) {
    // `.*x.*` and `.*.*` are quadratic on a subject with a line terminator (`isDotStarSandwich`).
    if (leading) return false;
    items.pop();
  }
  return items.every((item) => item.type === 'char');
}

/** Whether the pattern is literals separated by `|` (as `alternationOf` builds): linear in its length. */
export function isLiteralAlternation(node: RegexNode): boolean {
  const branches = node.type === 'alternation' ? node.branches : [node];
  return branches.every(
    (branch) =>
      branch.type === 'sequence' &&
      branch.items.every((item) => item.type === 'char' && item.literal !== undefined),
  );
}

/** The checker's source for a pattern, and the Java span of each leaf it wrote. */
export interface CheckerSource {
  source: string;
  /** `[checkerStart, checkerEnd, javaSpan]` of each character and assertion. */
  leaves: (readonly [number, number, Span])[];
}

/**
 * The pattern in the checker's dialect (ECMAScript, `u` flag), anchored as `String.matches` anchors it:
 * Java tries only position 0 and the match must reach the end.
 */
export function toCheckerSource(tree: RegexNode): CheckerSource {
  const leaves: (readonly [number, number, Span])[] = [];
  let source = '^(?:';
  const write = (node: RegexNode): void => {
    switch (node.type) {
      case 'char':
      case 'assert':
        leaves.push([source.length, source.length + node.js.length, node]);
        source += node.js;
        return;
      case 'group':
        source += '(?:';
        write(node.body);
        source += ')';
        return;
      case 'sequence':
        node.items.forEach(write);
        return;
      case 'alternation':
        node.branches.forEach((branch, index) => {
          if (index > 0) source += '|';
          write(branch);
        });
        return;
      case 'repeat':
        source += '(?:';
        write(node.body);
        source += `)${quantifier(node)}`;
        return;
    }
  };
  write(tree);
  source += ')$';
  return { source, leaves };
}

function quantifier(node: RepeatNode): string {
  const base = node.max === Infinity ? `{${node.min},}` : `{${node.min},${node.max}}`;
  return node.lazy ? `${base}?` : base;
}

/** The Java span covered by the checker's hotspots (checker indices), or `undefined` when none maps. */
export function javaSpanOf(
  leaves: CheckerSource['leaves'],
  hotspots: readonly { start: number; end: number }[],
): Span | undefined {
  let span: Span | undefined;
  for (const [from, to, java] of leaves) {
    if (!hotspots.some((hot) => hot.start < to && from < hot.end)) continue;
    span = span
      ? { start: Math.min(span.start, java.start), end: Math.max(span.end, java.end) }
      : { start: java.start, end: java.end };
  }
  return span;
}

/** The repetitions (count above 1) around `span`, outermost first: the loops a blow-up turns in. */
export function loopsAround(node: RegexNode, span: Span): RepeatNode[] {
  if (!(node.start <= span.start && span.end <= node.end)) return [];
  const children = childrenOf(node);
  const inner = children.flatMap((child) => loopsAround(child, span));
  return node.type === 'repeat' && node.max > 1 ? [node, ...inner] : inner;
}

/** `span` widened to every repetition whose body it touches, so that a quote shows the quantifiers. */
export function widenToRepeats(node: RegexNode, span: Span): Span {
  let widened = span;
  const visit = (current: RegexNode): void => {
    if (current.type === 'repeat' && current.body.start < span.end && span.start < current.body.end) {
      widened = { start: Math.min(widened.start, current.start), end: Math.max(widened.end, current.end) };
    }
    if (current.type === 'group' || current.type === 'repeat') visit(current.body);
    else if (current.type === 'sequence') current.items.forEach(visit);
    else if (current.type === 'alternation') current.branches.forEach(visit);
  };
  visit(node);
  return widened;
}

/** Whether `node` holds a repetition of its own (then a loop around it is a nested quantifier). */
export function holdsRepeat(node: RegexNode): boolean {
  switch (node.type) {
    case 'char':
    case 'assert':
      return false;
    case 'repeat':
      return node.max > 1 || holdsRepeat(node.body);
    case 'group':
      return holdsRepeat(node.body);
    case 'sequence':
      return node.items.some(holdsRepeat);
    case 'alternation':
      return node.branches.some(holdsRepeat);
  }
}
