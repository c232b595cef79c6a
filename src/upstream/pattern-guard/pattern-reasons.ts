/**
 * The reasons the pattern guard gives a caller: each names the construct, quotes at most
 * {@link MAX_QUOTE_LENGTH} characters of the pattern, and says what to write instead.
 */
import type { PatternRefusal, RegexNode, RepeatNode, Span } from './java-regex-ast.ts';
import { MAX_GROUP_REPEAT, holdsRepeat, loopsAround, widenToRepeats } from './regex-shape.ts';

/** Longest piece of the caller's pattern a reason quotes, in UTF-16 units (with the ellipsis). */
const MAX_QUOTE_LENGTH = 40;

const ALTERNATIVES = 'use the contains/startsWith/equals operators or a simpler pattern';

/** `pattern[span]`, shortened to {@link MAX_QUOTE_LENGTH}, with invisible characters written as `\u{…}`. */
export function quote(pattern: string, span: Span): string {
  let text = pattern.slice(span.start, span.end);
  if (text.length > MAX_QUOTE_LENGTH) text = `${text.slice(0, MAX_QUOTE_LENGTH - 1)}…`;
  const visible = text.replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
  return `"${visible}"`;
}

/** The pattern is too long (quotes nothing of it). */
export function tooLong(length: number, maxLength: number): string {
  return `the pattern is ${length} characters long, more than the ${maxLength} accepted; ${ALTERNATIVES}`;
}

/** A construct the parser refused. */
export function refused(pattern: string, refusal: PatternRefusal): string {
  const where = quote(pattern, refusal.span);
  return refusal.kind === 'invalid'
    ? `the pattern is not a valid Java regular expression: ${refusal.construct} at ${where}; ${refusal.advice}`
    : `${refusal.construct} ${where} is not accepted in a pattern; ${refusal.advice}`;
}

/** A group repeated without a small bound: one stack frame per turn in Java's matcher. */
export function deepGroupRepeat(pattern: string, repeat: RepeatNode): string {
  return (
    `the repeated group ${quote(pattern, repeat)} can overflow the upstream regex engine's stack on long ` +
    `values (Java repeats a group recursively); repeat single characters or classes instead ([ab]* for ` +
    `(a|b)*), bound the group to at most ${MAX_GROUP_REPEAT} turns, or ${ALTERNATIVES}`
  );
}

/** Nested (or consecutive) repeated groups whose turns multiply beyond what Java's stack holds. */
export function nestedRepetition(pattern: string, culprit: Span | undefined, maxUnits: number): string {
  return (
    `nested repetition ${quote(pattern, culprit ?? { start: 0, end: pattern.length })} multiplies the turns of ` +
    `repeated groups beyond what the upstream regex engine's stack holds (Java recurses once per turn of a ` +
    `group, and nested counts multiply; at most ${maxUnits} matcher nodes deep are accepted); use smaller ` +
    `counts, repeat single characters or classes instead of groups, or ${ALTERNATIVES}`
  );
}

/** `.*x.*`, quadratic in Java on values with line breaks. */
export function dotStarSandwich(pattern: string): string {
  return (
    `${quote(pattern, { start: 0, end: pattern.length })} takes time quadratic in the value's length in the ` +
    "upstream's regex engine when the value holds line breaks; use the contains operator (linear) instead"
  );
}

/** Alternatives or counts that multiply beyond `maxPaths`. */
export function tooManyPaths(pattern: string, maxPaths: number): string {
  return (
    `alternatives and counts in ${quote(pattern, { start: 0, end: pattern.length })} multiply to more than ` +
    `${maxPaths} ways of matching, which the upstream's regex engine tries one by one; ${ALTERNATIVES}`
  );
}

/** Names the loop that an exponential blow-up turns in: the culprit a caller can rewrite. */
function exponentialConstruct(tree: RegexNode, hot: Span): { name: string; span: Span } {
  const loops = loopsAround(tree, hot).filter((loop) => loop.max === Infinity || loop.max > 1);
  const nested = loops.find((loop) => holdsRepeat(loop.body));
  if (nested) return { name: 'nested quantifier', span: nested };
  const innermost = loops.at(-1);
  if (innermost) return { name: 'repetition of overlapping alternatives', span: innermost };
  return { name: 'repetition', span: hot };
}

/** The checker found exponential backtracking around `hot` (a Java span). */
export function exponential(pattern: string, tree: RegexNode, hot: Span | undefined): string {
  const { name, span } = exponentialConstruct(tree, hot ?? { start: 0, end: pattern.length });
  return `${name} ${quote(pattern, span)} can take exponential time in the upstream's regex engine; ${ALTERNATIVES}`;
}

/** The checker found polynomial backtracking of `degree` around `hot` (a Java span). */
export function polynomial(pattern: string, tree: RegexNode, degree: number, hot: Span | undefined): string {
  const span = hot ? widenToRepeats(tree, hot) : { start: 0, end: pattern.length };
  return (
    `repetitions ${quote(pattern, span)} can match the same text in many ways ` +
    `and take polynomial time (degree ${degree}) in the upstream's regex engine; ${ALTERNATIVES}`
  );
}

/** The analysis did not finish in time, or failed: the guard fails closed. */
export function notAnalysed(timedOut: boolean, timeoutMillis: number): string {
  return timedOut
    ? `the pattern could not be checked within ${timeoutMillis} ms, so it is refused; ${ALTERNATIVES}`
    : `the gateway could not check the pattern, so it is refused; ${ALTERNATIVES}`;
}

/** The checker spent its step budget or its memory on the pattern: the same answer on any machine. */
export function tooComplex(): string {
  return `the pattern is too complex for the gateway to check, so it is refused; ${ALTERNATIVES}`;
}

/** Too many new patterns are being checked at once (not cached: retrying later may succeed). */
export const BUSY =
  'the gateway is checking too many new patterns at once; retry shortly, or use the contains/startsWith/equals operators';
