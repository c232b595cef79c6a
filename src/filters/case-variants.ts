/**
 * Which characters a filter's `caseInsensitive` treats as the same letter.
 *
 * The rule: text character `t` matches value character `c` when `t === c`, or they have the same lower
 * case, or the same upper case (Unicode's default case mappings, as `toLowerCase`/`toUpperCase` apply them,
 * locale-independent). So `ǅ` matches `Ǆ` and `ǆ`, `k` matches `K` and the Kelvin sign `K`, `σ` matches `ς`
 * and `Σ`, `ß` matches `ẞ`, while `ß` does not match `SS` and `İ` (whose lower case is two characters) only
 * matches itself: a filter compares character by character, never one character with two.
 *
 * Neither Java's `(?iu)` nor JavaScript's `/iu` is used because they disagree on such letters (Java also
 * relates `İ` with `i`, JavaScript folds `ϑ` and `ϴ` together); the gateway lists the variants itself, so
 * the compiled pattern means the same in both engines.
 */

/** Code points up to here are scanned: every character Unicode gives a case mapping lies in planes 0–1. */
export const LAST_CASED_CODE_POINT_SCANNED = 0x1ffff;

/**
 * Every character whose lower or upper case differs from itself, indexed by its lower case and by its upper
 * case: the characters that map *to* a form (the Kelvin sign to `k`) can only be found this way. Built when
 * the module loads (a ~20 ms scan) so that no request pays for it.
 */
const byLower = new Map<string, string[]>();
const byUpper = new Map<string, string[]>();

function addTo(index: Map<string, string[]>, key: string, char: string): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [char]);
  else list.push(char);
}

for (let codePoint = 0; codePoint <= LAST_CASED_CODE_POINT_SCANNED; codePoint += 1) {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
  const char = String.fromCodePoint(codePoint);
  const lower = char.toLowerCase();
  const upper = char.toUpperCase();
  if (lower === char && upper === char) continue;
  addTo(byLower, lower, char);
  addTo(byUpper, upper, char);
}

/** Whether text character `t` matches value character `c` ignoring case (the rule above). */
export function sameIgnoringCase(c: string, t: string): boolean {
  return c === t || c.toLowerCase() === t.toLowerCase() || c.toUpperCase() === t.toUpperCase();
}

const isOneCodePoint = (text: string): boolean => {
  const first = text.codePointAt(0);
  return first !== undefined && String.fromCodePoint(first) === text;
};

/**
 * The characters that match `char` (one code point) ignoring case, `char` first, then in code point order;
 * `[char]` for a character without case.
 */
export function caseVariants(char: string): string[] {
  const lower = char.toLowerCase();
  const upper = char.toUpperCase();
  const candidates = new Set<string>([...(byLower.get(lower) ?? []), ...(byUpper.get(upper) ?? [])]);
  // A case form that has no case of its own is in neither index: add it directly.
  if (isOneCodePoint(lower)) candidates.add(lower);
  if (isOneCodePoint(upper)) candidates.add(upper);
  candidates.delete(char);
  const others = [...candidates]
    .filter((t) => sameIgnoringCase(char, t))
    .sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0));
  return [char, ...others];
}
