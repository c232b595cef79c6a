/**
 * Caps the request-body bytes the gateway holds at once: `MAX_INFLIGHT_BODY_BYTES` in all and
 * `MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS` from one client address. A body is buffered whole in the heap
 * before it is parsed (and the parsed body lives until the answer is sent), so many slow bodies add up: in
 * a measurement, 1,000 sockets each holding 99,990 of 99,999 declared bytes added about 100 MiB.
 *
 * The two bounds count differently, so that headers alone cannot fill the gateway:
 * - the per-address share reserves each request's declared `Content-Length` (a chunked body:
 *   `MAX_BODY_BYTES`, the most it may grow to) as soon as its headers have arrived; a request that does not
 *   fit is answered 503 `GATEWAY_BUSY` (`body_bytes_per_address`) before a byte of its body is read. A
 *   declaration costs only the address that makes it.
 * - the total counts only the bytes that have actually arrived of a body larger than one connection's even
 *   share of the total (`MAX_INFLIGHT_BODY_BYTES` / `MAX_CONNECTIONS`, 32 KiB by default). A body whose next
 *   bytes do not fit is answered 503 `GATEWAY_BUSY` (`body_bytes`) and its connection closed; what it had is
 *   released. Declaring 99,999 bytes and sending none holds nothing of the total, however many addresses do
 *   it. A body within the even share (every ordinary GraphQL request: a document is at most 32 KiB) is
 *   counted at its declared length at once and never refused by the total: all connections together cannot
 *   declare more than the total that way, and it is not piped through a counting stream (a stream per
 *   request cost about 10 µs of CPU and its garbage, a tenth of a small read's cost).
 * Both are released when the answer is sent or the connection closes.
 *
 * The per-address map holds only networks with a request in flight, each on its own connection, so it is
 * bounded by `MAX_CONNECTIONS`. The address is `request.ip` (behind `TRUSTED_PROXIES`, the client's),
 * an IPv6 one by its /64 (`client-network.ts`).
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayBusyError, busyBlame, sendBusy } from './busy-answer.ts';
import { clientNetwork } from '../../client-address/client-network.ts';

/** Options of {@link registerBodyBudget}. */
export interface BodyBudgetOptions {
  /** `MAX_INFLIGHT_BODY_BYTES`: body bytes that have arrived and are not yet answered, in all. */
  maxInflightBodyBytes: number;
  /** `MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS`: declared body bytes not yet answered, from one address. */
  maxInflightBodyBytesPerAddress: number;
  /** `MAX_BODY_BYTES`: what a chunked body may grow to (a longer declared one is refused by Fastify). */
  maxBodyBytes: number;
  /** `MAX_CONNECTIONS`: with the total, the even share of one connection. */
  maxConnections: number;
  /** Called with every refusal's code and blame (the request log's outcome and level). */
  onRefused?: (request: FastifyRequest, code: string, blame?: string) => void;
}

/** What {@link registerBodyBudget} lets a caller read. */
export interface BodyBudget {
  /** Body bytes arrived and not yet answered, in all. */
  inflight(): number;
  /** Addresses (networks) with a reservation now. */
  addresses(): number;
}

/** The bytes a request's body may take: its declared length, at most `maxBodyBytes`. */
function declaredBodyBytes(headers: FastifyRequest['headers'], maxBodyBytes: number): number {
  const length = headers['content-length'];
  if (length !== undefined) {
    const bytes = Number(length);
    return Number.isSafeInteger(bytes) && bytes >= 0 ? Math.min(bytes, maxBodyBytes) : 0;
  }
  return headers['transfer-encoding'] === undefined ? 0 : maxBodyBytes;
}

/** Passes a body through, asking `admit` for room before each chunk; errors with a busy refusal if refused. */
class CountedBody extends Transform {
  /** Read by Fastify's body reader, as for any stream a `preParsing` hook returns. */
  receivedEncodedLength = 0;

  private readonly admit: (bytes: number) => boolean;

  constructor(admit: (bytes: number) => boolean) {
    super();
    this.admit = admit;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.admit(chunk.length)) {
      callback(new GatewayBusyError('body_bytes'));
      return;
    }
    this.receivedEncodedLength += chunk.length;
    callback(null, chunk);
  }
}

/**
 * Adds the reservation hook (`onRequest`, before the body is read) and the arrival count (`preParsing`).
 * Register before the routes, with an error handler that answers {@link GatewayBusyError}.
 */
export function registerBodyBudget(app: FastifyInstance, options: BodyBudgetOptions): BodyBudget {
  let total = 0;
  const evenShare = Math.floor(options.maxInflightBodyBytes / options.maxConnections);
  const perAddress = new Map<string, number>();
  // What each request has counted against the total, until its answer is sent.
  const arrived = new WeakMap<FastifyRequest, { bytes: number }>();

  app.addHook('onRequest', (request, reply, done) => {
    const bytes = declaredBodyBytes(request.headers, options.maxBodyBytes);
    if (bytes === 0) {
      done();
      return;
    }
    const address = clientNetwork(request.ip);
    const fromAddress = perAddress.get(address) ?? 0;
    if (fromAddress + bytes > options.maxInflightBodyBytesPerAddress) {
      options.onRefused?.(request, 'GATEWAY_BUSY', busyBlame('body_bytes_per_address'));
      void sendBusy(reply, 'body_bytes_per_address');
      return;
    }
    perAddress.set(address, fromAddress + bytes);
    const counted = { bytes: 0 };
    if (bytes <= evenShare) {
      counted.bytes = bytes;
      total += bytes;
    } else {
      arrived.set(request, counted);
    }
    reply.raw.once('close', () => {
      total -= counted.bytes;
      counted.bytes = 0;
      const left = (perAddress.get(address) ?? bytes) - bytes;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    done();
  });

  app.addHook('preParsing', (request, _reply, payload, done) => {
    const counted = arrived.get(request);
    if (counted === undefined) {
      done(null, payload);
      return;
    }
    const body = new CountedBody((bytes) => {
      if (total + bytes > options.maxInflightBodyBytes) return false;
      total += bytes;
      counted.bytes += bytes;
      return true;
    });
    // Not `pipeline`: a refusal must not destroy the request (and its socket) before the 503 is written.
    payload.pipe(body);
    payload.once('error', (error) => body.destroy(error));
    body.once('error', () => payload.unpipe(body));
    done(null, body);
  });
  return { inflight: () => total, addresses: () => perAddress.size };
}
