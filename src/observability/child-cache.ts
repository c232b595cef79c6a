/**
 * prom-client's labelled children, made once per label combination and kept: `metric.labels(...values)`
 * validates and copies the labels, so calling it (or `inc(labels)`) on every request repeats that work for
 * the same few combinations. The metrics' label values are bounded (operation names are capped in
 * `metrics.ts`), and so is this cache.
 */

/** Answers `make(...values)`, made on the first call with these values and remembered. */
export function createChildCache<V extends readonly string[], C>(
  make: (...values: V) => C,
): (...values: V) => C {
  const children = new Map<string, C>();
  return (...values) => {
    // NUL separates the values: no label value the gateway produces contains it.
    const key = values.length === 1 ? (values[0] ?? '') : values.join('\u0000');
    let child = children.get(key);
    if (child === undefined) {
      child = make(...values);
      children.set(key, child);
    }
    return child;
  };
}
