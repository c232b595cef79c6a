/**
 * JSON read as a Java service reads it into a `Map` (Jackson, Gson with `LONG_OR_DOUBLE`): a whole number is
 * a `long`, kept with every digit, a fraction a `double`. JavaScript's `JSON.parse` would round a long past
 * 2^53 (9007199254740993 stored as …992), which the upstream the emulator stands for never does; such a
 * number is kept as a raw JSON value (`JSON.rawJSON`), which `JSON.stringify` writes back digit for digit
 * in every answer and in the data file. The emulator's own copy: it shares nothing with the gateway's client.
 */

/** A whole number as JSON writes it. */
const WHOLE = /^-?\d+$/;

function keepLongs(_key: string, value: unknown, context?: { source?: string }): unknown {
  const source = context?.source;
  if (typeof value !== 'number' || Number.isSafeInteger(value) || source === undefined) return value;
  return WHOLE.test(source) ? JSON.rawJSON(source) : value;
}

/** `JSON.parse`, with whole numbers past 2^53 kept exactly (see the file's comment). */
export function parseJavaJson(text: string): unknown {
  return JSON.parse(text, keepLongs);
}
