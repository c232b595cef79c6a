/**
 * A pattern for an upstream message that names what it refused (`Object type 'com.acme.Invoce' is not
 * registered`), learnt from the messages for two different names: the text both share stays literal
 * (escaped, never cut at a length), the part where they differ (the name) becomes a wildcard. One message
 * alone cannot tell the name from the sentence: a pattern made from it matches only that name.
 */

/** `text` as a literal regular-expression source (JavaScript, as the gateway's message settings are read). */
export function literalSource(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** Fewer literal characters than this, besides spaces, and the pattern would match nearly any message. */
const MIN_LITERAL_CHARACTERS = 4;

const isWordCharacter = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** Characters `a` and `b` share at their start. */
function sharedStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Characters `a` and `b` share at their end, within the `room` characters left after their shared start. */
function sharedEnd(a: string, b: string, room: number): number {
  let n = 0;
  while (n < room && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * The pattern source matching both messages and the same message for any other name, or `undefined` when
 * they share too little text to tell such a message from any other. Identical messages (the name is not in
 * them) give that message, literal.
 */
export function learnMessagePattern(first: string, second: string): string | undefined {
  if (first === second) {
    const whole = first.trim();
    return whole.replace(/\s/g, '').length >= MIN_LITERAL_CHARACTERS ? literalSource(whole) : undefined;
  }
  let start = sharedStart(first, second);
  let end = sharedEnd(first, second, Math.min(first.length, second.length) - start);
  // A shared start that stops inside a word (`…length 3` then `1` and `7`) is part of what differs: the
  // wildcard takes the whole word, so that another name's number or length still matches.
  while (start > 0 && isWordCharacter(first[start - 1]) && isWordCharacter(first[start])) start--;
  while (
    end > 0 &&
    isWordCharacter(first[first.length - end]) &&
    isWordCharacter(first[first.length - end - 1])
  ) {
    end--;
  }
  const prefix = first.slice(0, start);
  const suffix = first.slice(first.length - end);
  if ((prefix + suffix).replace(/\s/g, '').length < MIN_LITERAL_CHARACTERS) return undefined;
  return `${literalSource(prefix)}.+${literalSource(suffix)}`;
}
