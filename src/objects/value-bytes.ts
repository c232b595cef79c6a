/**
 * What a JSON value weighs once serialized, in characters of JSON, without serializing it: the answer's
 * bound (`src/limits/answer-size/answer-size-limit.ts`) is checked while the answer is built, so that an answer past it
 * is refused before `JSON.stringify` makes its string, and the gateway never serializes twice.
 *
 * A walk over the value: each string counts its characters, its quotes and what escaping adds (`"`, `\`
 * and control characters; a lone surrogate is escaped too), numbers and words their text. An object's
 * weight is remembered (a `WeakMap`, so it goes with the object): the same record selected under sixteen
 * aliases is walked once, and records that identical concurrent reads share are walked once for all of them.
 */

/** Characters JSON writes as an escape (`\"`, `\\`, `\n`, `\u0001`…), and lone surrogates (`\udxxx`). */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON escapes.
const ESCAPED = /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether a string may hold anything {@link ESCAPED} matches: one native scan, no state, no allocation. */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON escapes.
const MAY_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

const weights = new WeakMap<object, number>();

function stringBytes(value: string): number {
  // The common string has nothing to escape (a surrogate pair only sends it the long way).
  if (!MAY_ESCAPE.test(value)) return value.length + 2;
  ESCAPED.lastIndex = 0;
  let extra = 0;
  for (const match of value.matchAll(ESCAPED)) {
    // `\"` and `\\` and `\n` add one character; `\u0001` and `\udxxx` add five.
    const code = match[0].charCodeAt(0);
    extra += code === 0x22 || code === 0x5c || code === 0x0a || code === 0x09 || code === 0x0d ? 1 : 5;
  }
  return value.length + 2 + extra;
}

function numberBytes(value: number): number {
  // Small integers, the common number, without making their text.
  if (Number.isSafeInteger(value) && value < 1e15 && value > -1e15) {
    let digits = value < 0 ? 2 : 1;
    for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) digits++;
    return digits;
  }
  return Number.isFinite(value) ? String(value).length : 4;
}

function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      return numberBytes(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'bigint':
      return String(value).length;
    default:
      // `null`; `undefined` and functions are left out by JSON, counted as `null` (an upper bound).
      return 4;
  }
}

function walk(root: object): number {
  let total = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) {
      total += scalarBytes(value);
      continue;
    }
    const known = weights.get(value);
    if (known !== undefined) {
      total += known;
      continue;
    }
    if (Array.isArray(value)) {
      // `[`, `]` and the commas.
      total += 2 + Math.max(0, value.length - 1);
      for (const item of value) stack.push(item);
    } else {
      const keys = Object.keys(value);
      total += 2 + Math.max(0, keys.length - 1);
      for (const key of keys) {
        // `"key":`
        total += stringBytes(key) + 1;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return total;
}

/** Nesting walked by recursion (the fast way); a deeper value is walked with a stack of its own. */
const RECURSION_DEPTH = 64;

function nodeBytes(value: unknown, depth: number): number {
  if (typeof value !== 'object' || value === null) return scalarBytes(value);
  if (depth >= RECURSION_DEPTH) return walk(value);
  if (Array.isArray(value)) {
    let total = value.length > 1 ? value.length + 1 : 2;
    for (const item of value as unknown[]) total += nodeBytes(item, depth + 1);
    return total;
  }
  // `{`, `}`, and per key its quoted text, the colon and a comma (one too many, taken back below).
  let total = 1;
  let keys = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    keys++;
    total += stringBytes(key) + 2 + nodeBytes((value as Record<string, unknown>)[key], depth + 1);
  }
  return keys === 0 ? 2 : total;
}

/** The characters of `JSON.stringify(value)` (an upper bound for values JSON leaves out). */
export function valueBytes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return scalarBytes(value);
  const known = weights.get(value);
  if (known !== undefined) return known;
  const bytes = nodeBytes(value, 0);
  weights.set(value, bytes);
  return bytes;
}

/** Whether {@link valueBytes} has weighed `value` before (its weight is remembered). */
export function isWeighed(value: object): boolean {
  return weights.has(value);
}
