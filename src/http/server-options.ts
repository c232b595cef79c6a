/**
 * The HTTP listener's timeouts and its answer to broken connections, as Fastify factory options.
 *
 * A client that trickles its headers or body holds a socket and a growing buffer for as long as it likes
 * unless something reaps it (3,000 such sockets held 210 MiB). Node's HTTP server does, once told to:
 * - `requestTimeout` (`HTTP_REQUEST_TIMEOUT_MS`): the whole request, headers and body, must arrive within it;
 * - `headersTimeout` (`HTTP_HEADERS_TIMEOUT_MS`): the headers must; it also covers a connection that sends
 *   nothing at all. Node refuses a value above `requestTimeout`;
 * - both are checked every `connectionsCheckingInterval` (30 s by default, which would let a reaped client
 *   live 30 s past its deadline): we check a few times per deadline instead, at least once a second.
 * The clock stops once the request has arrived: a slow GraphQL execution is bounded by `REQUEST_TIMEOUT_MS`,
 * not by these. A reaped client is answered 408 and its socket destroyed, so nothing is left hanging.
 *
 * `connectionTimeout` (`HTTP_CONNECTION_TIMEOUT_MS`, Node's `server.timeout`) closes a socket with no traffic
 * either way, the one case the others miss: a client that stops reading its answer. `keepAliveTimeout`
 * (`HTTP_KEEP_ALIVE_TIMEOUT_MS`) closes idle keep-alive sockets between requests.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger, FastifyHttpOptions } from 'fastify';
import { answerFor, sendAnswer } from './error-handler.ts';
import { ErrorCode } from '../errors/error-codes.ts';
import { rawHttpErrorResponse } from '../errors/http-error.ts';

/** The listener's timeouts (`GatewayConfig.http`). */
export interface HttpTimeouts {
  requestTimeoutMillis: number;
  headersTimeoutMillis: number;
  keepAliveTimeoutMillis: number;
  connectionTimeoutMillis: number;
}

/** The Fastify factory options {@link httpServerOptions} sets. */
export type HttpServerOptions = Pick<
  FastifyHttpOptions<Server>,
  | 'requestTimeout'
  | 'connectionTimeout'
  | 'keepAliveTimeout'
  | 'http'
  | 'clientErrorHandler'
  | 'frameworkErrors'
>;

/** How often Node looks for requests past their deadline: a few times per deadline, at least once a second. */
function connectionsCheckingInterval(timeouts: HttpTimeouts): number {
  const shortest = Math.min(timeouts.requestTimeoutMillis, timeouts.headersTimeoutMillis);
  return Math.max(10, Math.min(1_000, Math.floor(shortest / 4)));
}

/** The part of a socket Node's HTTP server uses to track its in-flight response. */
interface HttpSocket extends Socket {
  _httpMessage?: { headersSent?: boolean } | null;
}

/** What a connection error becomes; Node raises these before (or instead of) a request Fastify could answer. */
function rawAnswerFor(error: ConnectionError): string {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return rawHttpErrorResponse(408, ErrorCode.REQUEST_TIMEOUT, 'The request took too long to arrive.');
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return rawHttpErrorResponse(431, ErrorCode.HEADERS_TOO_LARGE, 'The request headers are too large.');
  }
  return rawHttpErrorResponse(400, ErrorCode.BAD_REQUEST, 'The request is not valid HTTP.');
}

/**
 * Node's `clientError` listener: answers in the GraphQL shape, then destroys the socket (the request stream
 * is in an unknown state). Like Node's own, it writes nothing once a response has started on the socket,
 * which the bytes would corrupt; nor to a client that closed its side before its request was whole
 * (`HPE_INVALID_EOF_STATE`): it has given the request up, and the answer was a write syscall per abandoned
 * connection, 6 % of the gateway's busy time under a flood reopening slow bodies (`npm run bench:churn -- --prof`).
 */
function clientErrorHandler(log: FastifyBaseLogger | undefined) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    log?.debug({ code: error.code }, 'client connection reaped');
    const started = (socket as HttpSocket)._httpMessage?.headersSent === true;
    const abandoned = error.code === 'HPE_INVALID_EOF_STATE';
    if (socket.writable && !started && !abandoned) socket.write(rawAnswerFor(error));
    socket.destroy();
  };
}

/** The listener's options: timeouts, and GraphQL-shaped answers to connection and routing errors. */
export function httpServerOptions(timeouts: HttpTimeouts, log?: FastifyBaseLogger): HttpServerOptions {
  return {
    requestTimeout: timeouts.requestTimeoutMillis,
    connectionTimeout: timeouts.connectionTimeoutMillis,
    keepAliveTimeout: timeouts.keepAliveTimeoutMillis,
    // Node validates headersTimeout against requestTimeout when the server is created, before Fastify sets
    // the latter: both go in here too.
    http: {
      requestTimeout: timeouts.requestTimeoutMillis,
      headersTimeout: timeouts.headersTimeoutMillis,
      connectionsCheckingInterval: connectionsCheckingInterval(timeouts),
    },
    clientErrorHandler: clientErrorHandler(log),
    // A malformed URL (`/%zz`) never reaches the router or the error handler.
    frameworkErrors: (error, _request, reply) => {
      void sendAnswer(reply, answerFor(error));
    },
  };
}
