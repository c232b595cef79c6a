/**
 * How deep Java's matcher may recurse on a pattern, whatever the subject. `java.util.regex` matches by
 * continuation: every node calls the next one, and the call returns only when the whole rest of the match
 * has succeeded or failed, so the stack holds one or more frames for each node on the path walked so far.
 * Most nodes are walked once per match, but a repeated group is walked once per turn, each turn on top of
 * the previous one: `(?:a*b){100}` holds its body's frames 100 times, and nested repetition multiplies,
 * so `(?:(?:a*b){100}){100}` holds them up to 10,000 times. On JDK 17 with the default 1 MiB thread
 * stack that overflows (a `StackOverflowError`, which the upstream answers 500) after about 1,600 turns.
 *
 * The model: the stack depth is at most {@link javaStackUnits} "units", where a unit is roughly one
 * matcher node on the stack. What does not recurse per character is counted once: a repeated single
 * character or class (`a*`, `[^x]{1,1000}`: Java loops over it), a literal run (one node). So the
 * subject's length never raises the bound (a turn of a group consumes at least what its body needs, so a
 * short subject stacks fewer turns, never more), and a pattern within {@link MAX_JAVA_STACK_UNITS} is safe
 * on a subject of any length the gateway accepts (`test/hardening/nested-repetition.test.ts` runs them on
 * subjects of `UPSTREAM_MAX_DATA_BYTES` characters in a real JVM).
 *
 * Measured with `java` 17 (`test/support/java/RegexTimer.java`, default stack) on subjects that stack as
 * many turns as possible, the interpreter (no JIT: the worst case, frames are largest; a cold upstream runs
 * it) overflows at 5,500–7,400 units: `(?:(?:a*b){100}){100}` at 1,387 turns of 5 units, `((ab?){50}){50}`
 * at 1,405 turns of 5, a 22-node body at 320 turns of 23, five nested alternations at 396 turns of 14;
 * the JIT-compiled matcher (after warm-up) at 9,000–11,500 units. The bound keeps a factor of about 2.7
 * below the worst, which leaves room for the servlet container's own frames beneath the matcher.
 */
import { childrenOf, type RegexNode } from './java-regex-ast.ts';

/** Most stack units a pattern may need (see the module comment). */
export const MAX_JAVA_STACK_UNITS = 2_000;

/** An upper bound of the stack units Java's matcher holds at once for `node` (`Infinity`: unbounded). */
export function javaStackUnits(node: RegexNode): number {
  switch (node.type) {
    case 'char':
    case 'assert':
      return 1;
    case 'group':
      // Java's group head and tail, capturing or not.
      return 2 + javaStackUnits(node.body);
    case 'alternation':
      return 1 + Math.max(...node.branches.map(javaStackUnits));
    case 'sequence': {
      let units = 0;
      let inLiteralRun = false;
      for (const item of node.items) {
        const literal = item.type === 'char' && item.literal !== undefined;
        // A run of literal characters is one node (Java's `Slice`).
        if (!(literal && inLiteralRun)) units += javaStackUnits(item);
        inLiteralRun = literal;
      }
      return units;
    }
    case 'repeat':
      // Java loops over a repeated single character or class without recursing.
      if (node.body.type === 'char') return 1;
      // A repeated group recurses once per turn, each turn holding its body.
      return 1 + node.max * (1 + javaStackUnits(node.body));
  }
}

/**
 * The outermost repetition that alone needs more than `maxUnits`, to name in the refusal; `undefined`
 * when only the pattern as a whole does (several repetitions one after another).
 */
export function deepestRepetition(node: RegexNode, maxUnits: number): RegexNode | undefined {
  if (node.type === 'repeat' && javaStackUnits(node) > maxUnits) return node;
  const children = childrenOf(node);
  for (const child of children) {
    const found = deepestRepetition(child, maxUnits);
    if (found !== undefined) return found;
  }
  return undefined;
}
