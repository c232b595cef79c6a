/**
 * Turning whatever the HTTP stack threw into an {@link UpstreamError}, without letting it carry the URL.
 *
 * undici's and Node's errors can mention the request path (and so the query string, with `apiToken`), so
 * the original error is never kept as `cause`: only its `name` and `code` survive, in a plain object.
 */
import { UpstreamError, isUpstreamError } from './errors.ts';
import type { UpstreamErrorKind } from './errors.ts';

/** What is left of an underlying error: two identifiers, never a message. */
export interface SanitizedCause {
  readonly name: string;
  readonly code: string;
}

/** What the transport knew when the error happened. */
export interface TransportErrorContext {
  operation: string;
  /** The whole-call timer fired (its abort shows up as some other error). */
  callTimedOut: boolean;
  callTimeoutMillis: number;
}

interface KindAndDetail {
  kind: UpstreamErrorKind;
  detail: string;
}

const BY_CODE: Readonly<Record<string, KindAndDetail>> = {
  UND_ERR_CONNECT_TIMEOUT: { kind: 'timeout', detail: 'connecting timed out' },
  UND_ERR_HEADERS_TIMEOUT: { kind: 'timeout', detail: 'no response headers in time' },
  UND_ERR_BODY_TIMEOUT: { kind: 'timeout', detail: 'response body stalled' },
  ETIMEDOUT: { kind: 'timeout', detail: 'connecting timed out' },
  ECONNREFUSED: { kind: 'unavailable', detail: 'connection refused' },
  ECONNRESET: { kind: 'unavailable', detail: 'connection reset' },
  EPIPE: { kind: 'unavailable', detail: 'connection reset' },
  UND_ERR_SOCKET: { kind: 'unavailable', detail: 'connection closed unexpectedly' },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: { kind: 'unavailable', detail: 'connection closed mid-body' },
  UND_ERR_RES_EXCEEDED_MAX_SIZE: { kind: 'bad_response', detail: 'response too large' },
  ENOTFOUND: { kind: 'unavailable', detail: 'host not found' },
  EAI_AGAIN: { kind: 'unavailable', detail: 'host not found' },
  EHOSTUNREACH: { kind: 'unavailable', detail: 'host unreachable' },
  ENETUNREACH: { kind: 'unavailable', detail: 'network unreachable' },
  UND_ERR_CLOSED: { kind: 'unavailable', detail: 'client closed' },
  UND_ERR_DESTROYED: { kind: 'unavailable', detail: 'client closed' },
};

/** Maps a thrown value of the HTTP layer to an `UpstreamError` whose message and cause hold no URL. */
export function toTransportError(error: unknown, context: TransportErrorContext): UpstreamError {
  const { operation } = context;
  if (isUpstreamError(error)) return error;
  const cause = sanitizeCause(error);
  if (context.callTimedOut) {
    return new UpstreamError('timeout', `no complete answer within ${context.callTimeoutMillis} ms`, {
      operation,
      cause,
    });
  }
  const known = BY_CODE[cause.code];
  if (known !== undefined) return new UpstreamError(known.kind, known.detail, { operation, cause });
  return new UpstreamError('unavailable', `request failed (${cause.code})`, { operation, cause });
}

/** Keeps `name` and `code` of an error when they look like identifiers; drops everything else. */
export function sanitizeCause(error: unknown): SanitizedCause {
  const name = readIdentifier(error, 'name') ?? 'Error';
  const code = readIdentifier(error, 'code') ?? 'UNKNOWN';
  return Object.freeze({ name, code });
}

function readIdentifier(error: unknown, key: 'name' | 'code'): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value: unknown = (error as Record<string, unknown>)[key];
  return typeof value === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(value) ? value : undefined;
}
