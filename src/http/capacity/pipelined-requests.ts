/**
 * Bounds the requests in flight on one connection, pipelined ones included. Node's HTTP server hands every
 * request it parses to the application at once, answered or not: 8 connections pipelining 32,000 requests
 * ran thousands of GraphQL requests at the same time (victim p95 2.6 s, `/healthz` 8.7 s, RSS +74 MiB).
 * HTTP/1.1 answers a connection's requests in order anyway, so running a later one early only holds its
 * work and its answer in memory. Here:
 *
 * - one request runs per connection; the next starts when its answer has been sent;
 * - up to `MAX_PIPELINED_REQUESTS` more wait behind it, not yet seen by Fastify (no hook, no body parsed);
 * - when one more arrives, the connection is refused: the first waiting request is answered 503
 *   `GATEWAY_BUSY` (`pipelined_requests`, blame `caller`) right after the running one, with
 *   `connection: close`; the connection stops being read, and nothing it sent after the running request
 *   is run (a pipelining client retries what was not answered, RFC 9112 §9.3.2). Node has parsed what
 *   one read delivered (64 KiB: up to about 2,000 small requests, about 5 KiB each) before it can be
 *   stopped; that is freed when the connection closes, right after the running request's answer.
 *
 * So one address runs at most `MAX_CONNECTIONS_PER_ADDRESS` requests at once and holds at most
 * `MAX_CONNECTIONS_PER_ADDRESS` × (1 + `MAX_PIPELINED_REQUESTS`) in flight, however it sends them, and a
 * probe (`/healthz`, `/readyz`) on its own connection never waits behind another connection's requests.
 * A request that waits counts as in flight for `connection-limits.ts`, which never closes its connection.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { rawBusyAnswer } from './busy-answer.ts';

/** Options of {@link limitPipelining}. */
export interface PipeliningCaps {
  /** `MAX_PIPELINED_REQUESTS`: requests that may wait behind the running one on one connection. */
  maxPipelinedRequests: number;
}

/** What {@link limitPipelining} lets a caller read. */
export interface PipelinedCounts {
  /** Requests running now, all connections together (at most one per connection). */
  running(): number;
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** One connection's requests: whether one runs, those waiting, and whether it has been refused. */
interface Line {
  running: boolean;
  waiting: [IncomingMessage, ServerResponse][];
  refused: boolean;
}

const LOG_EVERY_MILLIS = 1_000;

/**
 * Puts the bound in front of the server's `request` listeners (Fastify's among them): call it once, on the
 * server Fastify created, before any listener that must see every request Node parses is added.
 */
export function limitPipelining(
  server: Server,
  caps: PipeliningCaps,
  log: FastifyBaseLogger,
): PipelinedCounts {
  let running = 0;
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const lines = new WeakMap<Socket, Line>();
  let refusedSinceLog = 0;
  let lastLogAt = 0;

  const dispatch = (line: Line, request: IncomingMessage, response: ServerResponse): void => {
    line.running = true;
    running++;
    // 'close' follows the answer's 'finish', or the connection's end: either way the next may start.
    response.once('close', () => {
      // After every other 'close' listener (the body budget's release, the connection's count), so the
      // next request finds its predecessor's shares given back.
      process.nextTick(() => {
        line.running = false;
        running--;
        const next = line.waiting.shift();
        if (next !== undefined && !request.socket.destroyed) dispatch(line, ...next);
      });
    });
    for (const listener of listeners) listener.call(server, request, response);
  };

  const refuse = (line: Line, socket: Socket, response: ServerResponse): void => {
    line.refused = true;
    stopReading(socket);
    // The waiting ones are refused too (the first refusal closes the connection): what Node parsed of the
    // flood is freed once the running request is answered, not after the waiting ones have run.
    const first = line.waiting.shift()?.[1] ?? response;
    line.waiting.length = 0;
    refusedSinceLog++;
    const now = Date.now();
    if (now - lastLogAt >= LOG_EVERY_MILLIS) {
      lastLogAt = now;
      log.warn(
        { reason: 'pipelined_requests', address: socket.remoteAddress, refused: refusedSinceLog },
        'pipelined request refused: too many waiting on one connection',
      );
      refusedSinceLog = 0;
    }
    const { headers, body } = rawBusyAnswer('pipelined_requests');
    first.writeHead(503, headers);
    first.end(body);
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    let line = lines.get(socket);
    if (line === undefined) {
      line = { running: false, waiting: [], refused: false };
      lines.set(socket, line);
    }
    // After a refusal the connection closes with that answer: what it sent after is never run.
    if (line.refused) return;
    if (!line.running) dispatch(line, request, response);
    else if (line.waiting.length < caps.maxPipelinedRequests) line.waiting.push([request, response]);
    else refuse(line, socket, response);
  });
  return { running: () => running };
}

/** The part of a socket's native handle that reads (`net.Socket#_handle`). */
interface ReadingHandle {
  reading?: boolean;
  readStop?: () => number;
}

/**
 * Stops reading a refused connection for good: it closes once its answers are written, and until then
 * a pipelining client must not be parsed (each request Node parses is allocated: 8 connections × 32,000
 * requests took 680 MiB when only Node's pause was used). Node's HTTP server reads through the native
 * handle and resumes a paused socket whenever its answers drain (`socketOnDrain` in `lib/_http_server.js`),
 * so the handle's reading is stopped and this socket's `resume()` made a no-op.
 */
function stopReading(socket: Socket): void {
  socket.pause();
  const handle = (socket as unknown as { _handle?: ReadingHandle | null })._handle;
  if (handle?.readStop !== undefined) {
    handle.reading = false;
    handle.readStop();
  }
  socket.resume = () => socket;
}
