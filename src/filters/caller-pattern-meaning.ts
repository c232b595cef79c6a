/**
 * A caller-written `matches` pattern as a whole-value test the gateway can run itself, to hold an upstream's
 * answer to it. The pattern guard has already parsed the pattern into the constructs whose meaning is the
 * same in Java and in ECMAScript with the `u` flag (`java-regex-ast.ts`) and had its backtracking checked in
 * that dialect, so its translation (`toCheckerSource`, anchored as `String.matches` anchors) is run here.
 *
 * Not judged (the answer is accepted as the upstream gave it): a pattern with `\b` or `\B` (Java's word
 * boundary knows Unicode letters, ECMAScript's only ASCII ones), and any pattern the parser does not read
 * (the guard refused it, so it was never sent). docs/upstream-contract.md says so.
 */
import { parseJavaRegex } from '../upstream/pattern-guard/java-regex-parser.ts';
import { childrenOf, type RegexNode } from '../upstream/pattern-guard/java-regex-ast.ts';
import { toCheckerSource } from '../upstream/pattern-guard/regex-shape.ts';

/** Whether the tree holds an assertion whose meaning differs between Java and ECMAScript. */
function hasWordBoundary(node: RegexNode): boolean {
  if (node.type === 'assert') return node.js === '\\b' || node.js === '\\B';
  return childrenOf(node).some(hasWordBoundary);
}

/**
 * The test `pattern` makes of a whole value (as Java's `String.matches`), or `undefined` when the gateway
 * cannot run it with the same meaning.
 */
export function callerPatternTest(pattern: string): ((text: string) => boolean) | undefined {
  let tree: RegexNode;
  try {
    tree = parseJavaRegex(pattern);
  } catch {
    return undefined;
  }
  if (hasWordBoundary(tree)) return undefined;
  try {
    const compiled = new RegExp(toCheckerSource(tree).source, 'u');
    return (text) => compiled.test(text);
  } catch {
    return undefined;
  }
}
