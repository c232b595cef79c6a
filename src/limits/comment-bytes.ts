/**
 * The bytes of a GraphQL document's comments, counted before it is parsed.
 *
 * Comments matter because graphql-js's token limit (`MAX_TOKENS`) does not count them, yet the parser keeps
 * every comment as a token object (about 90 bytes of heap each) linked to the document, and the document
 * keeps its whole source text: 10,000 one-character comments made one cached document weigh 900 KB.
 */

const HASH = 0x23;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** UTF-8 bytes of the UTF-16 code unit `code` (a surrogate is half of a 4-byte character). */
function utf8Bytes(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 2;
  return 3;
}

/** Whether `text` holds `"""` at `at`. */
function isTripleQuote(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === QUOTE && text.charCodeAt(at + 1) === QUOTE && text.charCodeAt(at + 2) === QUOTE
  );
}

/**
 * The UTF-8 length of every comment of `text`, `#` included, line terminators excluded. One pass, reading strings and block strings as graphql-js's lexer does (a `#` inside
 * them is no comment). A string left open by a line break ends there, as the lexer would refuse it anyway:
 * the count stays meaningful for malformed text, which the parser then refuses.
 */
export function commentBytes(text: string): number {
  let total = 0;
  let at = 0;
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === HASH) {
      while (at < length) {
        const inComment = text.charCodeAt(at);
        if (inComment === NEWLINE || inComment === RETURN) break;
        total += utf8Bytes(inComment);
        at++;
      }
      continue;
    }
    if (isTripleQuote(text, at)) {
      at += 3;
      while (at < length && !isTripleQuote(text, at)) {
        // `\"""` is an escaped delimiter inside a block string.
        if (text.charCodeAt(at) === BACKSLASH && isTripleQuote(text, at + 1)) {
          at += 4;
          continue;
        }
        at++;
      }
      at += 3;
      continue;
    }
    if (code === QUOTE) {
      at++;
      while (at < length) {
        const inString = text.charCodeAt(at);
        if (inString === NEWLINE || inString === RETURN) break;
        if (inString === BACKSLASH && at + 1 < length) {
          at += 2;
          continue;
        }
        at++;
        if (inString === QUOTE) break;
      }
      continue;
    }
    at++;
  }
  return total;
}
