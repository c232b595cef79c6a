/**
 * Caps the client connections the HTTP listener holds: `MAX_CONNECTIONS` in all and
 * `MAX_CONNECTIONS_PER_ADDRESS` from one peer address. Each open connection costs a socket, Node's HTTP
 * parser and buffers (and, while a body arrives, the body: see `body-budget.ts`); without a cap, 4,500 slow
 * clients took a replica past the 512 Mi of `deploy/kubernetes/web.yaml` (issue 19).
 *
 * A connection past a cap is answered 503 `GATEWAY_BUSY` before any of its bytes are read, and closed; Node's
 * HTTP handling never sees it. A log line says so, at most one per second with the count since the last.
 * While as many refused connections as `MAX_CONNECTIONS` are still being answered, more are closed at once.
 *
 * The per-address count is a map whose entries live only while their address has an accepted connection
 * open, so it never holds more than `MAX_CONNECTIONS` entries, however many addresses an attacker uses.
 * The address is the TCP peer's: behind a proxy every connection is the proxy's, so raise the per-address
 * cap to the proxy's pool size there.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { rawBusyResponse, type BusyReason } from './busy-answer.ts';

/** The caps (`GatewayConfig.connectionLimits`). */
export interface ConnectionCaps {
  /** `MAX_CONNECTIONS`. */
  maxConnections: number;
  /** `MAX_CONNECTIONS_PER_ADDRESS`. */
  maxConnectionsPerAddress: number;
}

/** What {@link limitConnections} lets a caller read. */
export interface ConnectionCounts {
  /** Accepted connections open now. */
  open(): number;
  /** Addresses with an accepted connection open now (the size of the per-address map). */
  addresses(): number;
}

/** How long a refused connection may linger, reading and discarding, before it is destroyed. */
const REFUSED_LINGER_MILLIS = 1_000;
const LOG_EVERY_MILLIS = 1_000;

type ConnectionListener = (socket: Socket) => void;

/**
 * Puts the caps in front of the server's `connection` listeners (Node's HTTP handling among them): call it
 * once, on the server Fastify created, before it listens.
 */
export function limitConnections(
  server: Server,
  caps: ConnectionCaps,
  log: FastifyBaseLogger,
): ConnectionCounts {
  let open = 0;
  const perAddress = new Map<string, number>();
  let refusedSinceLog = 0;
  let lastLogAt = 0;
  // Refused sockets still being answered: bounded too, or a connection flood would hold file descriptors.
  let lingering = 0;

  const refuse = (socket: Socket, reason: BusyReason, address: string): void => {
    refusedSinceLog++;
    const now = Date.now();
    if (now - lastLogAt >= LOG_EVERY_MILLIS) {
      log.warn(
        { reason, address, open, refused: refusedSinceLog },
        'connection refused: too many connections',
      );
      lastLogAt = now;
      refusedSinceLog = 0;
    }
    socket.on('error', () => undefined);
    if (lingering >= caps.maxConnections) {
      socket.destroy();
      return;
    }
    lingering++;
    socket.once('close', () => {
      lingering--;
    });
    // Half-close after the answer and drop what the client still sends, so that it reads the 503 rather
    // than a reset; a client that never closes its side is destroyed soon after.
    socket.end(rawBusyResponse(reason));
    socket.resume();
    socket.setTimeout(REFUSED_LINGER_MILLIS, () => socket.destroy());
  };

  const listeners = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = perAddress.get(address) ?? 0;
    const reason: BusyReason | undefined =
      open >= caps.maxConnections
        ? 'connections'
        : fromAddress >= caps.maxConnectionsPerAddress
          ? 'connections_per_address'
          : undefined;
    if (reason !== undefined) {
      refuse(socket, reason, address);
      return;
    }
    open++;
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    for (const listener of listeners) listener.call(server, socket);
  });
  return { open: () => open, addresses: () => perAddress.size };
}
