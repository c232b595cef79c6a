/**
 * Anchoring for an upstream whose `matches` finds a pattern in any part of the value (`UPSTREAM_MATCHES=find`:
 * Java's `Matcher.find()`, MongoDB's `$regex`), so that `equals: "Type 1"` does not also answer `Type 10`.
 *
 * `^(?:…)$` is not enough: in Java (and PCRE, MongoDB's engine) `$` also matches before a line terminator
 * that ends the input, so `^(?:abc)$` would find `abc\n`. `\A` and `\z` are the start and the very end of
 * the input in Java, PCRE and Perl alike, whatever the flags. The group keeps an alternation (`a|b`, what
 * `in` and id batches send) inside the anchors. Inline flags cannot reach the anchors: the gateway's pattern
 * guard refuses them in caller patterns, and its own patterns have none.
 */

/** `pattern` anchored to the whole value under `Matcher.find()`: `\A(?:pattern)\z`. */
export function anchorForFind(pattern: string): string {
  return `\\A(?:${pattern})\\z`;
}
