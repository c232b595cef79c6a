/**
 * Sets of Unicode code points as sorted, disjoint, inclusive ranges: what a Java character class means,
 * and how to say it in a JavaScript pattern that runs without the `u` flag (V8's linear-time engine, the
 * emulator's fallback, supports no flags), so supplementary characters become surrogate pairs.
 */

/** Sorted, disjoint, non-adjacent inclusive ranges. */
export type CodePointSet = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;

/** The set of the given ranges (in any order, possibly overlapping). */
export function setOf(...ranges: (readonly [number, number])[]): CodePointSet {
  const sorted = ranges.filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

/** `a ∪ b`. */
export const union = (a: CodePointSet, b: CodePointSet): CodePointSet => setOf(...a, ...b);

/** Every code point not in `set`. */
export function complement(set: CodePointSet): CodePointSet {
  const result: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) result.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** `a ∩ b`. */
export const intersect = (a: CodePointSet, b: CodePointSet): CodePointSet =>
  complement(union(complement(a), complement(b)));

/** `set` plus the other ASCII case of each ASCII letter in it (Java's `(?i)` without `(?u)`). */
export function withAsciiCase(set: CodePointSet): CodePointSet {
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    extra.push([Math.max(lo, 0x61) - 0x20, Math.min(hi, 0x7a) - 0x20]);
    extra.push([Math.max(lo, 0x41) + 0x20, Math.min(hi, 0x5a) + 0x20]);
  }
  return setOf(...set, ...extra);
}

const unit = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;
const classRange = (lo: number, hi: number): string => (lo === hi ? unit(lo) : `${unit(lo)}-${unit(hi)}`);

/**
 * The set as a JavaScript pattern atom (no flags) matching one code point of it: BMP characters by a class,
 * supplementary ones as surrogate pairs. Lone surrogates are left out, so half of a pair is never matched
 * alone (Java reads a pair as one code point).
 */
export function renderSet(set: CodePointSet): string {
  const bmp = intersect(set, setOf([0, 0xd7ff], [0xe000, 0xffff]));
  const parts: string[] = [];
  if (bmp.length > 0) parts.push(`[${bmp.map(([lo, hi]) => classRange(lo, hi)).join('')}]`);
  // Low-surrogate ranges per high surrogate; runs of highs that take every low become one class.
  const lows = new Map<number, [number, number][]>();
  for (const [lo, hi] of intersect(set, [[0x10000, MAX_CODE_POINT]])) {
    for (let cp = lo; cp <= hi;) {
      const high = 0xd800 + ((cp - 0x10000) >> 10);
      const last = Math.min(hi, 0x10000 + ((high - 0xd800 + 1) << 10) - 1);
      const list = lows.get(high) ?? [];
      list.push([0xdc00 + ((cp - 0x10000) & 0x3ff), 0xdc00 + ((last - 0x10000) & 0x3ff)]);
      lows.set(high, list);
      cp = last + 1;
    }
  }
  const full = (list: [number, number][] | undefined) =>
    list?.length === 1 && list[0]?.[0] === 0xdc00 && list[0][1] === 0xdfff;
  const highs = [...lows.keys()];
  for (let i = 0; i < highs.length; i++) {
    const high = highs[i] ?? 0;
    if (full(lows.get(high))) {
      let end = high;
      while (highs[i + 1] === end + 1 && full(lows.get(end + 1))) end = highs[++i] ?? end;
      parts.push(`[${classRange(high, end)}][\\udc00-\\udfff]`);
    } else {
      const list = lows.get(high) ?? [];
      parts.push(`${unit(high)}[${list.map(([lo, hi]) => classRange(lo, hi)).join('')}]`);
    }
  }
  if (parts.length === 0) return '[]';
  return parts.length === 1 ? (parts[0] ?? '[]') : `(?:${parts.join('|')})`;
}
