/**
 * The charset the emulator speaks (`EMULATOR_CHARSET`), as a servlet does: answers encoded in it and labelled
 * with it; request bodies read in the charset their Content-Type declares, or in the dialect's own when they
 * declare none (ISO-8859-1 is the Servlet default). Java's ISO-8859-1 encoder writes `?` for every character
 * Latin-1 lacks (a surrogate pair is one character), and so does the emulator.
 */

/** The charsets of `EMULATOR_CHARSET`. */
export type EmulatorCharset = 'utf-8' | 'iso-8859-1';

/** The `charset` label of answers, as Tomcat writes it for each. */
export function charsetLabel(charset: EmulatorCharset): string {
  return charset === 'utf-8' ? 'utf-8' : 'ISO-8859-1';
}

/** `text` encoded as the emulator sends it. */
export function encodeText(text: string, charset: EmulatorCharset): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  return Buffer.from(text.replace(BEYOND_LATIN1, '?'), 'latin1');
}

/** One character (code point, lone surrogates included) past U+00FF. */
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/gu;

/** Node's decoding of a body declared (or defaulted) in a charset. */
export type BodyEncoding = 'utf8' | 'latin1';

const ENCODINGS = new Map<string, BodyEncoding>([
  ['utf-8', 'utf8'],
  ['utf8', 'utf8'],
  ['us-ascii', 'utf8'],
  ['iso-8859-1', 'latin1'],
  ['iso8859_1', 'latin1'],
  ['latin1', 'latin1'],
]);

/**
 * How to read a request body whose `Content-Type` is `contentType`: by its `charset` parameter, or the
 * dialect's charset without one; `undefined` for a charset the emulator does not know (a servlet's
 * `getReader()` throws `UnsupportedEncodingException` there).
 */
export function bodyEncodingOf(
  contentType: string | undefined,
  charset: EmulatorCharset,
): BodyEncoding | undefined {
  const declared = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1];
  if (declared === undefined) return charset === 'utf-8' ? 'utf8' : 'latin1';
  return ENCODINGS.get(declared.toLowerCase());
}
