/**
 * The syntax tree of a Java (`java.util.regex`) pattern as the pattern guard reads it, and the refusal a
 * parse ends with. Only the constructs whose meaning and backtracking cost are the same in Java and in the
 * ReDoS checker's dialect (ECMAScript with the `u` flag) have a node; everything else is refused by name.
 *
 * Every node keeps its `[start, end)` span in the Java pattern, so that a finding of the checker can be
 * quoted back to the caller in the caller's own syntax.
 */

/** Java's `.` (no DOTALL) in the checker's dialect: any character but `\n`, `\r`, `\u0085`, `\u2028`, `\u2029`. */
export const JAVA_DOT = '[^\\n\\r\\u0085\\u2028\\u2029]';

/** A span of the Java pattern, in UTF-16 units. */
export interface Span {
  start: number;
  end: number;
}

/** One character: a literal, a class (`[a-z]`, `\d`, `\p{Lu}`) or `.`. */
export interface CharNode extends Span {
  type: 'char';
  /** The same set of characters in the checker's dialect (ECMAScript, `u` flag). */
  js: string;
  /** The code point, when the node is one literal character. */
  literal?: number;
}

/** A zero-width assertion: `^`, `$`, `\b`, `\B`, `\A`, `\z`, `\Z`, `\G`. */
export interface AssertNode extends Span {
  type: 'assert';
  js: string;
}

/** A group (capturing, named or not): the same matching behaviour for the analysis. */
export interface GroupNode extends Span {
  type: 'group';
  body: RegexNode;
}

/** `body` repeated `min` to `max` times (`Infinity` when unbounded); `lazy` for `*?`, `+?`, `??`, `{…}?`. */
export interface RepeatNode extends Span {
  type: 'repeat';
  body: RegexNode;
  min: number;
  max: number;
  lazy: boolean;
}

/** Items matched one after another. */
export interface SequenceNode extends Span {
  type: 'sequence';
  items: RegexNode[];
}

/** `a|b|c`. */
export interface AlternationNode extends Span {
  type: 'alternation';
  branches: RegexNode[];
}

/** Any node of the tree. */
export type RegexNode = CharNode | AssertNode | GroupNode | RepeatNode | SequenceNode | AlternationNode;

/** The nodes directly inside `node`, in pattern order (none for a character or an assertion). */
export function childrenOf(node: RegexNode): readonly RegexNode[] {
  if (node.type === 'group' || node.type === 'repeat') return [node.body];
  if (node.type === 'sequence') return node.items;
  if (node.type === 'alternation') return node.branches;
  return [];
}

/**
 * Why a pattern cannot be accepted as it is written: `construct` names it, `span` locates it (quoted to the
 * caller, shortened), `advice` says what to write instead.
 */
export class PatternRefusal extends Error {
  readonly construct: string;
  readonly span: Span;
  readonly advice: string;
  /** `unsupported`: valid Java the guard does not accept; `invalid`: Java itself would reject it. */
  readonly kind: 'unsupported' | 'invalid';

  constructor(
    construct: string,
    span: Span,
    advice: string,
    kind: 'unsupported' | 'invalid' = 'unsupported',
  ) {
    super(`${construct}: ${advice}`);
    this.name = 'PatternRefusal';
    this.construct = construct;
    this.span = span;
    this.advice = advice;
    this.kind = kind;
  }
}
