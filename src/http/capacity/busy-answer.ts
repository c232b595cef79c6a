/**
 * The answer when the gateway holds as many connections or request bytes as it may, or a connection as
 * many pipelined requests: HTTP 503 `GATEWAY_BUSY`, `Retry-After: 1`, the connection closed.
 * `extensions.reason` says which bound was reached; a per-address or per-connection bound is the caller's
 * to respect (blame `caller`), the total is the gateway's (`gateway`).
 */
import type { FastifyReply } from 'fastify';
import { ErrorCode } from '../../errors/error-codes.ts';
import { blameOfCode, type Blame } from '../../errors/blame.ts';
import {
  JSON_CONTENT_TYPE,
  NO_STORE_HEADERS,
  httpErrorBody,
  type HttpErrorBody,
} from '../../errors/http-error.ts';

/** Which bound was reached. */
export type BusyReason =
  | 'connections'
  | 'connections_per_address'
  | 'new_connections_per_address'
  | 'body_bytes'
  | 'body_bytes_per_address'
  | 'pipelined_requests';

/** The setting behind each reason, named in the message. */
const SETTING: Readonly<Record<BusyReason, string>> = {
  connections: 'MAX_CONNECTIONS',
  connections_per_address: 'MAX_CONNECTIONS_PER_ADDRESS',
  new_connections_per_address: 'MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND',
  body_bytes: 'MAX_INFLIGHT_BODY_BYTES',
  body_bytes_per_address: 'MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS',
  pipelined_requests: 'MAX_PIPELINED_REQUESTS',
};

const MESSAGE: Readonly<Record<BusyReason, string>> = {
  connections: 'The gateway holds as many connections as it may; retry in a moment.',
  connections_per_address:
    'Your address holds as many open connections as one client may; close some or retry later.',
  new_connections_per_address:
    'Your address opened more new connections a second than one client may, and this one sent more than a request head while it waited its turn; keep connections alive and reuse them, or retry later.',
  body_bytes: 'The gateway is receiving as many request bytes as it may; retry in a moment.',
  body_bytes_per_address:
    'Your address is sending as many request bytes at once as one client may; retry later.',
  pipelined_requests:
    'This connection has as many requests waiting as one connection may; send the rest after their answers or on another connection.',
};

/** Whose a busy answer is (`blame.ts`): a per-address share is the caller's to respect, the total the gateway's. */
export function busyBlame(reason: BusyReason): Blame {
  return blameOfCode(ErrorCode.GATEWAY_BUSY, reason);
}

/** The error body of a busy answer. */
function busyBody(reason: BusyReason): HttpErrorBody {
  return httpErrorBody(ErrorCode.GATEWAY_BUSY, MESSAGE[reason], {
    reason,
    limit: SETTING[reason],
    retryAfter: 1,
  });
}

/**
 * A busy refusal raised while a request's body arrives (the total of `MAX_INFLIGHT_BODY_BYTES` reached):
 * the error handler answers it with {@link sendBusy}.
 */
export class GatewayBusyError extends Error {
  /** For Fastify, which would otherwise take the error as the client's (400). */
  readonly statusCode = 503;

  /** Which bound was reached. */
  readonly reason: BusyReason;

  constructor(reason: BusyReason) {
    super(MESSAGE[reason]);
    this.reason = reason;
    this.name = 'GatewayBusyError';
  }
}

/** Sends the busy answer on a Fastify reply, closing the connection: the rest of the body is never read. */
export function sendBusy(reply: FastifyReply, reason: BusyReason): FastifyReply {
  return reply
    .code(503)
    .header('retry-after', '1')
    .header('connection', 'close')
    .type(JSON_CONTENT_TYPE)
    .send(busyBody(reason));
}

/**
 * The busy answer's headers and body, for a Node response Fastify never saw (a pipelined request refused
 * before it was handed on: `pipelined-requests.ts`). `connection: close` makes Node close the connection
 * once it is written.
 */
export function rawBusyAnswer(reason: BusyReason): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(busyBody(reason));
  return {
    headers: {
      'content-type': JSON_CONTENT_TYPE,
      'content-length': String(Buffer.byteLength(body)),
      ...NO_STORE_HEADERS,
      'retry-after': '1',
      connection: 'close',
    },
    body,
  };
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
