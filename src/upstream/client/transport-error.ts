/**
 * Turning whatever the HTTP stack threw into an {@link UpstreamError}, without letting it carry the URL.
 *
 * undici's and Node's errors can mention the request path (and so the query string, with `apiToken`), so
 * the original error is never kept as `cause`: only its `name` and `code` survive, in a plain object.
 */
import { loginRedirect } from '../dialect/dead-session.ts';
import { UpstreamError, isUpstreamError } from '../../errors/upstream-error.ts';
import type { UpstreamErrorKind } from '../../errors/upstream-error.ts';

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

/** Codes of failures that happen before a byte of the request leaves: nothing can have been applied. */
const NEVER_SENT: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

/** Whether `error` proves the request never reached the upstream (so a write was certainly not applied). */
export function wasNeverSent(error: UpstreamError): boolean {
  const cause: unknown = error.cause;
  return (
    typeof cause === 'object' &&
    cause !== null &&
    NEVER_SENT.has(String((cause as Partial<SanitizedCause>).code))
  );
}

/**
 * The error of a non-2xx answer, by whose fault it is. The gateway builds every request, so a 4xx is the
 * gateway's to prevent (`request_rejected`, or `invalid_input` for "too large", whose cause is the
 * caller's input) and never says the upstream is sick; 401/403 are the session's; 404 on an operation
 * that addresses an object by id is "not found". Only 408, 429 and 5xx are ill health.
 */
export function fromHttpStatus(status: number, operation: string, location?: string): UpstreamError {
  const options = { operation, httpStatus: status };
  // A servlet's dead session: a redirect to its login page, or 401/403 from container-managed security.
  const toLogin = loginRedirect(status, location, operation);
  if (toLogin !== undefined) return toLogin;
  if (status >= 500 || status === 429) return new UpstreamError('unavailable', `HTTP ${status}`, options);
  if (status === 408) return new UpstreamError('timeout', 'HTTP 408', options);
  if (status === 401) return new UpstreamError('unauthenticated', 'HTTP 401', options);
  if (status === 403) return new UpstreamError('unauthenticated', 'HTTP 403', options);
  if (status === 404 && (operation === 'metadata' || operation === 'update')) {
    return new UpstreamError('not_found', 'HTTP 404', options);
  }
  if (status === 413 || status === 414 || status === 431) {
    return new UpstreamError(
      'invalid_input',
      `The upstream refused the request as too large (HTTP ${status}); send less (shorter ids, fewer or shorter conditions or fields). Operators: set UPSTREAM_MAX_URL_BYTES to the upstream's limit so the gateway refuses such requests itself.`,
      options,
    );
  }
  return new UpstreamError('request_rejected', `HTTP ${status}`, options);
}

/** Keeps `name` and `code` of an error when they look like identifiers; drops everything else. */
function sanitizeCause(error: unknown): SanitizedCause {
  const name = readIdentifier(error, 'name') ?? 'Error';
  const code = readIdentifier(error, 'code') ?? 'UNKNOWN';
  return Object.freeze({ name, code });
}

function readIdentifier(error: unknown, key: 'name' | 'code'): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value: unknown = (error as Record<string, unknown>)[key];
  return typeof value === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(value) ? value : undefined;
}
