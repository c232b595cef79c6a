/**
 * Relay's global ids (`RELAY_NODE=true`): an opaque id that names the GraphQL type and the upstream id (and
 * for `DataObject` the upstream object name), so `node(id:)` knows what to read from the id alone.
 *
 * The encoding is versioned and length-prefixed, so no character of a part can be read as a separator:
 * base64url (no padding) of the UTF-8 text `1` followed by `:<length>:<part>` per part, lengths in UTF-16
 * code units (`1:8:LoanType:24:65f0…`). Decoding is strict: one spelling per id (the id must re-encode to
 * itself), a bounded length, valid UTF-8, and every byte accounted for; anything else is a
 * {@link GlobalIdError}, never a crash and never an upstream call.
 */

/** The version this gateway writes and reads. */
const GLOBAL_ID_VERSION = '1';

/** The longest global id accepted (characters): far above any real id, far below a costly decode. */
export const MAX_GLOBAL_ID_LENGTH = 1024;

/** The most parts an id may hold (`DataObject`, object name, upstream id). */
const MAX_PARTS = 3;

/** A global id that this gateway did not write. `message` says why, for the caller (`malformed`). */
export class GlobalIdError extends Error {
  override readonly name = 'GlobalIdError';
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const LENGTH = /^(0|[1-9][0-9]{0,4})$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The global id of `parts` (the type name first). */
export function encodeGlobalId(parts: readonly string[]): string {
  const payload = GLOBAL_ID_VERSION + parts.map((part) => `:${String(part.length)}:${part}`).join('');
  return Buffer.from(payload, 'utf8').toString('base64url');
}

function payloadOf(id: string): string {
  if (id.length === 0 || id.length > MAX_GLOBAL_ID_LENGTH || !BASE64URL.test(id)) {
    throw new GlobalIdError(`expected base64url text of at most ${String(MAX_GLOBAL_ID_LENGTH)} characters`);
  }
  try {
    return utf8.decode(Buffer.from(id, 'base64url'));
  } catch {
    throw new GlobalIdError('not UTF-8 once decoded');
  }
}

/** The parts of a global id. @throws GlobalIdError when the gateway did not write it. */
export function decodeGlobalId(id: string): string[] {
  const payload = payloadOf(id);
  if (!payload.startsWith(`${GLOBAL_ID_VERSION}:`)) {
    throw new GlobalIdError('unknown version');
  }
  const parts: string[] = [];
  let at = GLOBAL_ID_VERSION.length;
  while (at < payload.length) {
    const colon = payload.indexOf(':', at + 1);
    const length = colon === -1 ? '' : payload.slice(at + 1, colon);
    if (payload[at] !== ':' || !LENGTH.test(length) || parts.length === MAX_PARTS) {
      throw new GlobalIdError('malformed');
    }
    const end = colon + 1 + Number(length);
    if (end > payload.length) throw new GlobalIdError('truncated');
    parts.push(payload.slice(colon + 1, end));
    at = end;
  }
  // One spelling per id: base64url with stray bits or a different text is not an id this gateway wrote.
  if (parts.length === 0 || encodeGlobalId(parts) !== id) {
    throw new GlobalIdError('not in canonical form');
  }
  return parts;
}
