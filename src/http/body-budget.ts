/**
 * Caps the request-body bytes the gateway holds at once: `MAX_INFLIGHT_BODY_BYTES` in all and
 * `MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS` from one client address. A body is buffered whole in the heap
 * before it is parsed (and the parsed body lives until the answer is sent), so many slow bodies add up: in
 * issue 19, 1,000 sockets each holding 99,990 of 99,999 declared bytes added about 100 MiB.
 *
 * Each request reserves its declared `Content-Length` (a chunked body: `MAX_BODY_BYTES`, the most it may
 * grow to) when its headers have arrived, before a byte of its body is read, and releases it when its
 * answer is sent or its connection closes. A request that does not fit is answered 503 `GATEWAY_BUSY` and
 * its connection closed, its body never read.
 *
 * The per-address map holds only addresses with a request in flight, each on its own connection, so it is
 * bounded by `MAX_CONNECTIONS`. The address is `request.ip`: behind `TRUSTED_PROXIES`, the client's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { busyBody, type BusyReason } from './busy-answer.ts';
import { JSON_CONTENT_TYPE } from './http-error.ts';

/** Options of {@link registerBodyBudget}. */
export interface BodyBudgetOptions {
  /** `MAX_INFLIGHT_BODY_BYTES`. */
  maxInflightBodyBytes: number;
  /** `MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS`. */
  maxInflightBodyBytesPerAddress: number;
  /** `MAX_BODY_BYTES`: what a chunked body may grow to (a longer declared one is refused by Fastify). */
  maxBodyBytes: number;
  /** Called with every refusal's code (the request log's outcome). */
  onRefused?: (request: FastifyRequest, code: string) => void;
}

/** What {@link registerBodyBudget} lets a caller read. */
export interface BodyBudget {
  /** Bytes reserved now, in all. */
  inflight(): number;
  /** Addresses with a reservation now. */
  addresses(): number;
}

/** The bytes a request's body may take: its declared length, at most `maxBodyBytes`. */
export function declaredBodyBytes(headers: FastifyRequest['headers'], maxBodyBytes: number): number {
  const length = headers['content-length'];
  if (length !== undefined) {
    const bytes = Number(length);
    return Number.isSafeInteger(bytes) && bytes >= 0 ? Math.min(bytes, maxBodyBytes) : 0;
  }
  return headers['transfer-encoding'] === undefined ? 0 : maxBodyBytes;
}

/** Adds the reservation hook (`onRequest`, before the body is read). Register before the routes. */
export function registerBodyBudget(app: FastifyInstance, options: BodyBudgetOptions): BodyBudget {
  let total = 0;
  const perAddress = new Map<string, number>();

  app.addHook('onRequest', (request, reply, done) => {
    const bytes = declaredBodyBytes(request.headers, options.maxBodyBytes);
    if (bytes === 0) {
      done();
      return;
    }
    const address = request.ip;
    const fromAddress = perAddress.get(address) ?? 0;
    let reason: BusyReason | undefined;
    if (fromAddress + bytes > options.maxInflightBodyBytesPerAddress) reason = 'body_bytes_per_address';
    else if (total + bytes > options.maxInflightBodyBytes) reason = 'body_bytes';
    if (reason !== undefined) {
      options.onRefused?.(request, 'GATEWAY_BUSY');
      void reply
        .code(503)
        .header('retry-after', '1')
        // The body is never read: the connection cannot carry another request.
        .header('connection', 'close')
        .type(JSON_CONTENT_TYPE)
        .send(busyBody(reason));
      return;
    }
    total += bytes;
    perAddress.set(address, fromAddress + bytes);
    reply.raw.once('close', () => {
      total -= bytes;
      const left = (perAddress.get(address) ?? bytes) - bytes;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    done();
  });
  return { inflight: () => total, addresses: () => perAddress.size };
}
