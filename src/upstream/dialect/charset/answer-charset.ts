/**
 * Answers decoded by the charset they name (the `answer_charset` assumption). A servlet that writes through
 * `getWriter()` labels its answer with the charset it encoded it in (Tomcat and Jetty add
 * `charset=ISO-8859-1`, the Servlet default, when the code set none), so the label is the truth; an answer
 * that names none is decoded by `UPSTREAM_ANSWER_CHARSET`. An unknown label is a named error, never a guess.
 */
import { isUtf8 } from 'node:buffer';
import { dialectMismatch } from '../assumptions.ts';

/** The charsets the gateway decodes. */
export type AnswerCharset = 'utf-8' | 'iso-8859-1' | 'windows-1252';

/**
 * The labels of each charset, lower-cased: the IANA names and aliases Java and the servlet containers write
 * (`Charset.name()`, `Cp1252`, `latin1`). US-ASCII is read as UTF-8, of which it is a subset: a byte past
 * 0x7F in an answer labelled ASCII then fails as not UTF-8 rather than being guessed at.
 */
const LABELS: ReadonlyMap<string, AnswerCharset> = new Map<string, AnswerCharset>([
  ...['utf-8', 'utf8', 'unicode-1-1-utf-8', 'us-ascii', 'ascii', 'iso646-us', 'ansi_x3.4-1968'].map(
    (label) => [label, 'utf-8'] as const,
  ),
  ...[
    'iso-8859-1',
    'iso8859-1',
    'iso8859_1',
    'iso_8859-1',
    'iso_8859_1',
    'iso_8859-1:1987',
    'latin1',
    'l1',
    'cp819',
    'ibm819',
    'csisolatin1',
    'iso-ir-100',
  ].map((label) => [label, 'iso-8859-1'] as const),
  ...['windows-1252', 'cp1252', 'x-cp1252'].map((label) => [label, 'windows-1252'] as const),
]);

/** The charset a label names, or `undefined` when the gateway does not know it. Case-insensitive. */
export function answerCharsetOf(label: string): AnswerCharset | undefined {
  return LABELS.get(label.toLowerCase());
}

/**
 * The `charset` parameter of a `Content-Type` value (RFC 9110 §8.3: `type/subtype *(; name=value)`, the
 * value a token or a quoted string, names case-insensitive), lower-cased; `undefined` when it names none.
 * A malformed parameter is skipped rather than refused: the header is the upstream's, and only the charset
 * matters here. The first `charset` wins.
 */
export function charsetParameterOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  let at = contentType.indexOf(';');
  while (at !== -1) {
    at += 1;
    while (at < contentType.length && isWhitespace(contentType.charCodeAt(at))) at += 1;
    const equals = contentType.indexOf('=', at);
    const semicolon = contentType.indexOf(';', at);
    if (equals === -1) return undefined;
    if (semicolon !== -1 && semicolon < equals) {
      at = semicolon;
      continue;
    }
    const name = contentType.slice(at, equals).trimEnd().toLowerCase();
    const { value, end } = parameterValue(contentType, equals + 1);
    if (name === 'charset' && value !== '') return value.toLowerCase();
    at = contentType.indexOf(';', end);
  }
  return undefined;
}

/** The value starting at `from` (a quoted string unescaped, or a token trimmed) and where it ends. */
function parameterValue(text: string, from: number): { value: string; end: number } {
  if (text.charCodeAt(from) !== QUOTE) {
    const semicolon = text.indexOf(';', from);
    const end = semicolon === -1 ? text.length : semicolon;
    return { value: text.slice(from, end).trim(), end };
  }
  let value = '';
  let at = from + 1;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) return { value, end: at + 1 };
    if (code === BACKSLASH && at + 1 < text.length) at += 1;
    value += text.charAt(at);
    at += 1;
  }
  // An unterminated quoted string: nothing trustworthy in it.
  return { value: '', end: text.length };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x09;

/**
 * UTF-8 is decoded strictly: a byte sequence that is not UTF-8 means the answer is in another charset (a
 * Latin-1 answer labelled, or defaulted to, UTF-8; Java's own UTF-8 encoder never writes one), so every
 * accented letter of it would be U+FFFD. Shown, such text is silently wrong; saved back by a client that
 * edited another field, it destroys the stored text. A named error is the honest answer. `isUtf8` (simdutf)
 * and Buffer's decoder cost what the decoder alone did; a fatal `TextDecoder` costs three times as much. A
 * byte-order mark stays the text it was, which the JSONP decoder tolerates.
 */
function decodeUtf8(bytes: Uint8Array): string {
  if (!isUtf8(bytes)) throw new TypeError('not UTF-8');
  return asBuffer(bytes).toString('utf8');
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

/** Every byte is a character in windows-1252 (WHATWG maps the five unassigned ones to C1 controls). */
const WINDOWS_1252 = new TextDecoder('windows-1252');

/** Decodes `bytes` in `charset`; throws a `TypeError` when they are not UTF-8 and UTF-8 was named. */
export function decodeIn(bytes: Uint8Array, charset: AnswerCharset): string {
  if (charset === 'utf-8') return decodeUtf8(bytes);
  // WHATWG's `iso-8859-1` decoder is windows-1252; Node's `latin1` is the real thing, as Java writes it.
  if (charset === 'iso-8859-1') return asBuffer(bytes).toString('latin1');
  return WINDOWS_1252.decode(bytes);
}

/**
 * The text of an answer: `bytes` decoded by the charset `contentType` names, or `fallback`
 * (`UPSTREAM_ANSWER_CHARSET`) when it names none; `decoded` hears which charset that was. Throws
 * `UPSTREAM_DIALECT_MISMATCH` (`answer_charset`) for an unknown charset or bytes that are not in the charset used.
 */
export function decodeAnswer(
  bytes: Uint8Array,
  contentType: string | undefined,
  fallback: AnswerCharset,
  operation: string,
  decoded?: (charset: AnswerCharset, text: string) => void,
): string {
  const label = charsetParameterOf(contentType);
  const charset = label === undefined ? fallback : answerCharsetOf(label);
  if (charset === undefined && label !== undefined) {
    return refuse(operation, `the answer is in charset ${quoted(label)}, which the gateway cannot decode.`);
  }
  try {
    const text = decodeIn(bytes, charset ?? fallback);
    decoded?.(charset ?? fallback, text);
    return text;
  } catch (error) {
    const detail =
      label === undefined
        ? 'the answer names no charset and is not UTF-8 (UPSTREAM_ANSWER_CHARSET=utf-8): set the charset it is in.'
        : `the answer is labelled charset=${quoted(label)} but is not UTF-8: the upstream mislabels its answers.`;
    return refuse(operation, detail, error);
  }
}

/** The upstream's label, cut short: it is the upstream's text, written into the gateway's log. */
const quoted = (label: string): string => JSON.stringify(label.slice(0, 40));

function refuse(operation: string, detail: string, cause?: unknown): never {
  throw dialectMismatch(operation, 'answer_charset', detail, cause);
}
