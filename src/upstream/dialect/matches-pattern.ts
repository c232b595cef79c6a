/**
 * The `matches` pattern as it goes on the wire: the gateway's own frame around a pattern that the filter
 * compiler wrote or the pattern guard accepted, so that every operator keeps its meaning on an upstream whose
 * `matches` finds a pattern in part of the value (`UPSTREAM_MATCHES=find`) or ignores case
 * (`UPSTREAM_MATCHES_CASE=insensitive`).
 *
 * Anchoring (`find`): `^(?:…)$` is not enough: in Java (and PCRE, MongoDB's engine) `$` also matches before a
 * line terminator that ends the input, so `^(?:abc)$` would find `abc\n`. `\A` and `\z` are the start and the
 * very end of the input in Java, PCRE and Perl alike, whatever the flags. The group keeps an alternation
 * (`a|b`, what `in` and id batches send) inside the anchors.
 *
 * Case (`insensitive`): `(?-i)` first, before the anchors. At the top level of a pattern an inline flag holds
 * for the rest of it, every later alternative included, in Java (`Pattern.CASE_INSENSITIVE` is turned off)
 * and in PCRE (MongoDB's `$options: 'i'` alike); nothing of the caller's precedes it, so it covers the whole
 * pattern. The anchors mean the same with or without the flag.
 *
 * Inline flags of the caller cannot undo either: the pattern guard refuses them in caller patterns, and the
 * compiled ones have none. The frame is added after the guard (it is the gateway's, not the caller's);
 * {@link MAX_FRAME_LENGTH} is what the compilers leave room for.
 */
import type { MatchesMode } from '../client/wire.ts';

/** Java's and PCRE's inline flag turning case-insensitivity off for the rest of the pattern. */
export const CASE_SENSITIVE_FLAG = '(?-i)';

/** How the upstream's `matches` reads a pattern: the two settings that frame it. */
export interface MatchesDialect {
  /** `UPSTREAM_MATCHES`. */
  matchesMode: MatchesMode;
  /** `UPSTREAM_MATCHES_CASE`. */
  matchesCase: 'sensitive' | 'insensitive';
}

/** `pattern` anchored to the whole value under `Matcher.find()`: `\A(?:pattern)\z`. */
export function anchorForFind(pattern: string): string {
  return `\\A(?:${pattern})\\z`;
}

/** `pattern` made case-sensitive on an upstream that compiles patterns case-insensitively: `(?-i)pattern`. */
export function caseSensitive(pattern: string): string {
  return `${CASE_SENSITIVE_FLAG}${pattern}`;
}

/**
 * The longest frame {@link framePattern} adds, in characters (`(?-i)\A(?:` and `)\z`): a compiled pattern
 * is held to its limit less this, so that what is sent stays within it.
 */
export const MAX_FRAME_LENGTH = caseSensitive(anchorForFind('')).length;

/**
 * A `matches` pattern as the gateway sends it: as it is, anchored (`find`), made case-sensitive
 * (`insensitive`), or both as `(?-i)\A(?:pattern)\z`. `exact` sends values, not patterns: never framed.
 */
export function framePattern(pattern: string, dialect: MatchesDialect): string {
  if (dialect.matchesMode === 'exact') return pattern;
  const anchored = dialect.matchesMode === 'find' ? anchorForFind(pattern) : pattern;
  return dialect.matchesCase === 'insensitive' ? caseSensitive(anchored) : anchored;
}
