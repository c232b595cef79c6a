/**
 * Finds a number in a JSON text that a double would change (`number-loss.ts`): once `JSON.parse` has run,
 * `1e-400` is `0` and nobody can tell, so the numbers are read from the text itself.
 *
 * The text has already been parsed once (its syntax checked), so a scanner reads it: strings skipped,
 * every number token found outside them with the keys and indexes that lead to it. The scanner is one loop
 * with an explicit stack, never recursion: a body nested 5,000 deep (`JSON.parse`'s reviver overflows the
 * stack there) is searched like any other, so no body escapes the check by its depth.
 *
 * It runs only on texts that could hold a loss at all (`mightLoseNumber`, `number-loss.ts`): most bodies
 * are answered by one regular expression.
 */
import { mightLoseNumber, numberLoss, type NumberLoss } from '../upstream/dialect/number-loss.ts';

/** A number a double would change: where it is (keys and indexes from the root), as written, and how. */
export interface JsonNumberLoss {
  path: (string | number)[];
  literal: string;
  loss: NumberLoss;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const POINT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

/** The index just past the string starting at `start` (a quote); the text's end if it never closes. */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote >= 0) {
    // A quote ends the string when an even number of backslashes precede it.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/** The key written at `[start, end)` (a JSON string, quotes included), decoded. */
function keyAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** One open object or array: the current index, or where the current key is written. */
interface Frame {
  array: boolean;
  index: number;
  keyStart: number;
  keyEnd: number;
}

/**
 * The first number of `text` (valid JSON, already parsed once) that a double would change, if any. With
 * `under`, only numbers under the root object's key `under` count (a request's `variables`: numbers in its
 * `extensions` never reach the upstream); a duplicated key's discarded value is searched too. With `keep`,
 * a literal it accepts is passed over (a whole number the gateway carries exactly: `exact-numbers-hook.ts`).
 */
export function firstJsonNumberLoss(
  text: string,
  under?: string,
  keep?: (literal: string) => boolean,
): JsonNumberLoss | undefined {
  if (!mightLoseNumber(text)) return undefined;
  const stack: Frame[] = [];
  let depth = 0;
  let expectKey = false;
  let inScope = under === undefined;
  const length = text.length;
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      const array = code === OPEN_BRACKET;
      // Frames are reused: a deep body allocates its stack once, not once per container.
      const frame = stack[depth];
      if (frame === undefined) stack.push({ array, index: 0, keyStart: 0, keyEnd: 0 });
      else {
        frame.array = array;
        frame.index = 0;
      }
      depth += 1;
      expectKey = !array;
      at += 1;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0 && under !== undefined) inScope = false;
      expectKey = false;
      at += 1;
    } else if (code === COMMA) {
      const frame = stack[depth - 1];
      if (frame?.array === true) frame.index += 1;
      else expectKey = true;
      at += 1;
    } else if (code === COLON) {
      expectKey = false;
      at += 1;
    } else if (code === QUOTE) {
      const end = endOfString(text, at);
      const frame = stack[depth - 1];
      if (expectKey && frame !== undefined) {
        frame.keyStart = at;
        frame.keyEnd = end;
        if (depth === 1 && under !== undefined) inScope = keyAt(text, at, end) === under;
      }
      at = end;
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      const start = at;
      let exponent = false;
      for (; at < length; at += 1) {
        const c = text.charCodeAt(at);
        if (c === LOWER_E || c === UPPER_E) exponent = true;
        else if (!((c >= DIGIT_0 && c <= DIGIT_9) || c === POINT || c === MINUS || c === PLUS)) break;
      }
      // Without an exponent, fewer than 16 digits and points are always exact (see MIGHT_LOSE).
      const judged = inScope && (exponent || at - start - (code === MINUS ? 1 : 0) >= 16);
      const literal = judged ? text.slice(start, at) : '';
      const loss = judged ? numberLoss(literal) : undefined;
      if (loss !== undefined && keep?.(literal) !== true)
        return { path: pathOf(text, stack, depth), literal, loss };
    } else at += 1;
  }
  return undefined;
}

/** The keys and indexes of the `depth` open containers. */
function pathOf(text: string, stack: Frame[], depth: number): (string | number)[] {
  const path: (string | number)[] = [];
  for (let level = 0; level < depth; level += 1) {
    const frame = stack[level];
    if (frame !== undefined) {
      path.push(frame.array ? frame.index : keyAt(text, frame.keyStart, frame.keyEnd));
    }
  }
  return path;
}
