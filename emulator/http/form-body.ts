/**
 * Parses an `application/x-www-form-urlencoded` body. Unlike `URLSearchParams`, which silently keeps
 * broken escapes, it answers `undefined` for a malformed body so the caller can say so. The first
 * occurrence of a repeated name wins.
 */
export function parseFormBody(body: string): Map<string, string> | undefined {
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
      name = decodeURIComponent(rawName.replaceAll('+', ' '));
      value = decodeURIComponent(rawValue.replaceAll('+', ' '));
    } catch {
      return undefined;
    }
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}
