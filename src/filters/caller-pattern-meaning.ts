/**
 * A caller-written `matches` pattern as a whole-value test the gateway can run itself, to hold an upstream's
 * answer to it. The pattern guard has already parsed the pattern into the constructs whose meaning is the
 * same in Java and in ECMAScript with the `u` flag (`java-regex-ast.ts`) and had its backtracking checked in
 * that dialect, so its translation (`toCheckerSource`, anchored as `String.matches` anchors) is run here.
 *
 * Not judged (the answer is accepted as the upstream gave it): a pattern with `\b` or `\B` (Java's word
 * boundary knows Unicode letters, ECMAScript's only ASCII ones), one with `$` or `\Z` followed by more than
 * the end of its group or branch (Java's also match before a final line terminator, which what follows may
 * consume), and any pattern the parser does not read (the guard refused it, so it was never sent). docs/upstream-contract.md says so.
 */
import { parseJavaRegex } from '../upstream/pattern-guard/java-regex-parser.ts';
import { childrenOf, type RegexNode } from '../upstream/pattern-guard/java-regex-ast.ts';
import { toCheckerSource } from '../upstream/pattern-guard/regex-shape.ts';

/**
 * Whether the tree holds an assertion whose meaning differs between Java and ECMAScript: a word boundary, or
 * Java's `$` and `\\Z` (the end, or before a final line terminator) where something may follow them to
 * consume that terminator (`abc$\\n` matches `abc` and a line break in Java, never in ECMAScript).
 */
function differsFromJava(node: RegexNode, pattern: string): boolean {
  if (node.type === 'assert') {
    if (node.js === '\\b' || node.js === '\\B') return true;
    const written = pattern.slice(node.start, node.end);
    return (written === '$' || written === '\\Z') && !/^\)*$/.test(pattern.slice(node.end));
  }
  return childrenOf(node).some((child) => differsFromJava(child, pattern));
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
  if (differsFromJava(tree, pattern)) return undefined;
  try {
    const compiled = new RegExp(toCheckerSource(tree).source, 'u');
    return (text) => compiled.test(text);
  } catch {
    return undefined;
  }
}
