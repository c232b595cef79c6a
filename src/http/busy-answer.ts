/**
 * The answer when the gateway holds as many connections or request bytes as it may: HTTP 503
 * `GATEWAY_BUSY`, `Retry-After: 1`, the connection closed. `extensions.reason` says which bound was reached;
 * a per-address bound is the caller's to respect (blame `caller`), the total is the gateway's (`gateway`).
 */
import { ErrorCode } from '../graphql/error-codes.ts';
import { JSON_CONTENT_TYPE, NO_STORE_HEADERS, httpErrorBody, type HttpErrorBody } from './http-error.ts';

/** Which bound was reached. */
export type BusyReason = 'connections' | 'connections_per_address' | 'body_bytes' | 'body_bytes_per_address';

/** The setting behind each reason, named in the message. */
const SETTING: Readonly<Record<BusyReason, string>> = {
  connections: 'MAX_CONNECTIONS',
  connections_per_address: 'MAX_CONNECTIONS_PER_ADDRESS',
  body_bytes: 'MAX_INFLIGHT_BODY_BYTES',
  body_bytes_per_address: 'MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS',
};

const MESSAGE: Readonly<Record<BusyReason, string>> = {
  connections: 'The gateway holds as many connections as it may; retry in a moment.',
  connections_per_address:
    'Your address holds as many open connections as one client may; close some or retry later.',
  body_bytes: 'The gateway is receiving as many request bytes as it may; retry in a moment.',
  body_bytes_per_address:
    'Your address is sending as many request bytes at once as one client may; retry later.',
};

/** The error body of a busy answer. */
export function busyBody(reason: BusyReason): HttpErrorBody {
  const perAddress = reason.endsWith('_per_address');
  return httpErrorBody(ErrorCode.GATEWAY_BUSY, MESSAGE[reason], {
    reason,
    limit: SETTING[reason],
    blame: perAddress ? 'caller' : 'gateway',
    retryAfter: 1,
  });
}

/** The busy answer as raw HTTP/1.1 bytes, for a connection refused before any request was read. */
export function rawBusyResponse(reason: BusyReason): string {
  const body = JSON.stringify(busyBody(reason));
  return [
    'HTTP/1.1 503 Service Unavailable',
    `content-type: ${JSON_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(NO_STORE_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'retry-after: 1',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}
