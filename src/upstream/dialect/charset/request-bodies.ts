/**
 * Request bodies any servlet reads right (the `request_charset` assumption). A servlet decodes a body by the
 * charset its Content-Type declares, and by ISO-8859-1 (the Servlet default) when it declares none, or when
 * the application forces one. So JSON bodies go out ASCII-only (every other character a `\u` escape, which
 * every JSON parser turns back into the character whatever charset it decoded the bytes in) and labelled
 * `charset=UTF-8`; the form login, whose percent-escapes a servlet decodes in the request's charset, declares
 * the charset it was encoded in: UTF-8, or ISO-8859-1 for an upstream that reads every body so
 * (`UPSTREAM_REQUEST_CHARSET`).
 */
import { invalidInput } from '../../../errors/upstream-error.ts';

/** The charsets the form login body can be encoded in. */
export type RequestCharset = 'utf-8' | 'iso-8859-1';

/** The Content-Type of every JSON body. */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * `JSON.stringify(value)` with every character past U+007F written as a `\uXXXX` escape (a character past
 * U+FFFF as its two surrogates' escapes, as JSON spells it). `JSON.stringify` already escapes lone
 * surrogates, so the text is well-formed and pure ASCII.
 */
export function asciiJson(value: unknown): string {
  return asciiJsonText(JSON.stringify(value));
}

/**
 * A JSON text with every character past U+007F written as a `\uXXXX` escape (outside strings a JSON text
 * holds none). For JSON sent in a query string (`filterCommand`, update's `data`): a servlet container
 * decodes query strings in its own charset (Tomcat's default `URIEncoding` is ISO-8859-1), which turns UTF-8
 * `é` into `Ã©` without a word; escapes are ASCII, the same in every charset.
 */
export function asciiJsonText(json: string): string {
  return json.replace(NON_ASCII, escapeChar);
}

const escapeChar = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A form body and its Content-Type. */
export interface FormBody {
  contentType: string;
  body: string;
}

/**
 * `fields` as `application/x-www-form-urlencoded` in `charset`, with the charset declared. In ISO-8859-1 a
 * character Latin-1 lacks is the caller's mistake (`BAD_USER_INPUT` naming the field, never its value),
 * refused before sending: Java's encoder would send `?`, and a wrong password must not be tried as another.
 */
export function formBody(
  operation: string,
  fields: Readonly<Record<string, string>>,
  charset: RequestCharset,
): FormBody {
  if (charset === 'utf-8') {
    return {
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
      body: new URLSearchParams(fields).toString(),
    };
  }
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (NOT_LATIN1.test(value)) {
      throw invalidInput(
        operation,
        `The ${name} holds a character the upstream cannot read: it takes ISO-8859-1 (Latin-1) text only.`,
        name,
      );
    }
    pairs.push(`${latin1Component(name)}=${latin1Component(value)}`);
  }
  return { contentType: 'application/x-www-form-urlencoded; charset=ISO-8859-1', body: pairs.join('&') };
}

const NOT_LATIN1 = /[\u0100-\uffff]/;

/**
 * One name or value percent-encoded as the WHATWG urlencoded serializer does (`URLSearchParams`), bytes
 * being Latin-1: `*-._`, digits and letters as they are, space as `+`, every other byte `%XX`.
 */
function latin1Component(text: string): string {
  let encoded = '';
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x20) encoded += '+';
    else if (isUnreserved(code)) encoded += text.charAt(at);
    else encoded += `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

function isUnreserved(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2a ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f
  );
}
