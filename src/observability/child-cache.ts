/**
 * prom-client's labelled children, made once per label combination and kept: `metric.labels(...values)`
 * validates and copies the labels, so calling it (or `inc(labels)`) on every request repeats that work for
 * the same few combinations. Each label's values are bounded (operation names in `operation-names.ts`,
 * outcomes in `metrics.ts`), and so is their product here: past `maxEntries` combinations, a new one is
 * folded into a coarser one (`fold`), so neither this cache nor the registry's series grow without end.
 */

/** Past how many combinations new ones are folded, and into what (a small, fixed set of combinations). */
export interface ChildCacheBound<V extends readonly string[]> {
  maxEntries: number;
  fold: (...values: V) => V;
}

/** Answers `make(...values)`, made on the first call with these values and remembered. */
export function createChildCache<V extends readonly string[], C>(
  make: (...values: V) => C,
  bound?: ChildCacheBound<V>,
): (...values: V) => C {
  const children = new Map<string, C>();
  // NUL separates the values: no label value the gateway produces contains it.
  const keyOf = (values: V) => (values.length === 1 ? (values[0] ?? '') : values.join('\u0000'));
  const remember = (key: string, values: V): C => {
    const child = make(...values);
    children.set(key, child);
    return child;
  };
  return (...values) => {
    const key = keyOf(values);
    const child = children.get(key);
    if (child !== undefined) return child;
    if (bound === undefined || children.size < bound.maxEntries) return remember(key, values);
    const folded = bound.fold(...values);
    const foldedKey = keyOf(folded);
    return children.get(foldedKey) ?? remember(foldedKey, folded);
  };
}
