import type { BodyEncoding } from './charset.ts';

/**
 * Parses an `application/x-www-form-urlencoded` body, its percent-escapes bytes in `encoding` (a servlet
 * decodes them in the request's charset). Unlike `URLSearchParams`, which silently keeps
 * broken escapes, it answers `undefined` for a malformed body so the caller can say so. The first
 * occurrence of a repeated name wins.
 */
export function parseFormBody(
  body: string,
  encoding: BodyEncoding = 'utf8',
): Map<string, string> | undefined {
  const decode = encoding === 'utf8' ? decodeURIComponent : decodeLatin1Component;
  const fields = new Map<string, string>();
  if (body === '') return fields;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    let name: string;
    let value: string;
    try {
      name = decode(rawName.replaceAll('+', ' '));
      value = decode(rawValue.replaceAll('+', ' '));
    } catch {
      return undefined;
    }
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}

/** `decodeURIComponent` with every `%XX` a Latin-1 byte; throws a `URIError` on a broken escape, as it does. */
function decodeLatin1Component(text: string): string {
  if (BROKEN_ESCAPE.test(text)) throw new URIError('broken percent-escape');
  return text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const BROKEN_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
