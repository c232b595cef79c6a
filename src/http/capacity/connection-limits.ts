/**
 * Caps the client connections the HTTP listener holds: `MAX_CONNECTIONS` in all and
 * `MAX_CONNECTIONS_PER_ADDRESS` from one peer address (an IPv6 one by its /64: `client-network.ts`). Each
 * open connection costs a socket, Node's HTTP parser and buffers (and, while a body arrives, the body: see
 * `body-budget.ts`); without a cap, 4,500 slow clients took a replica past the 512 Mi of
 * `deploy/kubernetes/web.yaml`.
 *
 * A connection past its address's share is answered 503 `GATEWAY_BUSY` (`connections_per_address`) before
 * any of its bytes are read, and closed; Node's HTTP handling never sees it, unless one of the address's
 * own connections has a body trickling (see below), which is closed to let it in instead: behind a proxy
 * or a NAT, one client's slow bodies must not hold the share of every other client of that address. When the total is reached, the
 * newcomer is not refused while room can be made fairly: a truly idle connection (no request in flight,
 * none waiting behind it, and no byte of a next request received: nothing sent yet, or a keep-alive one
 * between requests) of the address holding the most is closed instead, but only if that address holds
 * more connections than the newcomer's will, so costs fall on whoever holds the most and a client with one
 * keep-alive connection is never closed for another's. A connection whose request is running or waiting
 * is never closed: a well-behaved client's request must not pay for others' slow ones (136 of 153 of a
 * victim's keep-alive requests once found their connection closed that way). Nor is one whose body is
 * arriving, for {@link SLOW_BODY_MILLIS}; past that, a body still incomplete trickles (a body the gateway
 * takes, at most `MAX_BODY_BYTES`, arrives in a fraction of that on any working link), and its connection
 * is closed like an idle one, by the same rule: 17 addresses sending slow bodies once held 1,022
 * connections that nothing closed, and a victim opening a connection per read was refused 48 times of 51.
 * The grace is the address's, not each connection's: an address that closed a connection whose request
 * had not arrived whole (a body incomplete, or the head of a next request begun) and unanswered, within the
 * last {@link ABANDONED_MEMORY_MILLIS}, has none, so its incomplete requests are closable at once. An
 * attacker that reopened every slow body after 0.8 s kept each younger than the grace, and a victim was
 * refused 143 times of 246 at two replicas. A working client does not abandon requests half sent.
 * When nothing can be closed, the newcomer is refused (`connections`); each slow request is bounded by
 * `HTTP_REQUEST_TIMEOUT_MS`. A log line says so, at most one per second with the counts since the last.
 *
 * A connection accepted within these caps is read at once if its address has a token of its share of new
 * connections (`connection-rate.ts`, `MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND`), else it waits, unread by
 * Node's HTTP handling, in its address's line until one is free (see `wait` below).
 *
 * A refused connection is destroyed at most a second later, whatever it sends. When the server closes, the
 * refused connections and every accepted one without a request in flight are destroyed at once: Node's
 * HTTP server does not know the refused ones and keeps waiting for one that has sent nothing, which held
 * every SIGTERM for its whole grace period. While as many refused
 * connections as `MAX_CONNECTIONS` are still being answered, more are closed at once.
 *
 * The per-address map holds only addresses with an accepted connection open, so it never holds more than
 * `MAX_CONNECTIONS` entries, however many addresses an attacker uses. The address is the TCP peer's: behind
 * a proxy every connection is the proxy's, so raise the per-address cap to the proxy's pool size there.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { rawBusyResponse, type BusyReason } from './busy-answer.ts';
import { createConnectionRate } from './connection-rate.ts';
import { clientNetwork } from '../../client-address/client-network.ts';

/** The caps (`GatewayConfig.connectionLimits`). */
export interface ConnectionCaps {
  /** `MAX_CONNECTIONS`. */
  maxConnections: number;
  /** `MAX_CONNECTIONS_PER_ADDRESS`. */
  maxConnectionsPerAddress: number;
  /** How long a refused connection may linger, reading and discarding, before it is destroyed (1 s). */
  refusedLingerMillis?: number;
  /** How long a request's body may be arriving before its connection may be closed to make room (1 s). */
  slowBodyMillis?: number;
  /** `MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND` (`connection-rate.ts`); none: not bounded. */
  newConnectionsPerAddressPerSecond?: number;
  /** The clock of the new-connection shares, in milliseconds (tests drive it). Default `performance.now`. */
  now?: () => number;
}

/** What {@link limitConnections} lets a caller read. */
export interface ConnectionCounts {
  /** Accepted connections open now. */
  open(): number;
  /** Addresses with an accepted connection open now (the size of the per-address map). */
  addresses(): number;
  /** Refused connections still being answered. */
  lingering(): number;
  /** Accepted connections not read yet: their address has opened its share of new connections. */
  waiting(): number;
}

const REFUSED_LINGER_MILLIS = 1_000;
/** How long a body may be arriving before its connection counts as trickling (see the module comment). */
export const SLOW_BODY_MILLIS = 1_000;
/** How long an address that abandoned a request half sent goes without the grace (see the module comment). */
export const ABANDONED_MEMORY_MILLIS = 10_000;
const LOG_EVERY_MILLIS = 1_000;
/**
 * What a connection waiting for its address's turn may send before it is read: a request head (Node's
 * `maxHeaderSize`); more, and it is refused (`new_connections_per_address`), as the bytes are held unbounded by any
 * request's budget.
 */
export const WAITING_BYTES = 16_384;

type ConnectionListener = (socket: Socket) => void;

/** One address's accepted connections, and those of them without a request in flight (maybe arriving). */
interface Group {
  sockets: Set<Socket>;
  idle: Set<Socket>;
}

/** A connection accepted and not read yet: what it sent meanwhile, given to Node's HTTP server when it is. */
interface Waiting {
  socket: Socket;
  chunks: Buffer[];
  bytes: number;
  onData: (chunk: Buffer) => void;
  onEnd: () => void;
  /** Node's HTTP handling listens for errors once it has the socket; until then an unheard reset would crash. */
  onError: () => void;
}

/** An accepted connection: its address, its group and how many of its requests are in flight. */
interface Accepted {
  address: string;
  group: Group;
  inflight: number;
  /**
   * `socket.bytesRead` when it last became idle: more since means a next request is arriving. (Bytes of
   * a next request read before the last answer was sent, pipelined in the same read, are not told apart.)
   */
  bytesAtIdle: number;
  /** The request in flight it last began, and when (`performance.now()`): its body may still be arriving. */
  current: IncomingMessage | undefined;
  currentSince: number;
  /** When it was accepted or last became idle (`performance.now()`): a next request's head arrives since. */
  idleSince: number;
}

/**
 * Puts the caps in front of the server's `connection` listeners (Node's HTTP handling among them): call it
 * once, on the server Fastify created, before it listens.
 */
export function limitConnections(
  server: Server,
  caps: ConnectionCaps,
  log: FastifyBaseLogger,
): ConnectionCounts {
  const lingerMillis = caps.refusedLingerMillis ?? REFUSED_LINGER_MILLIS;
  const slowBodyMillis = caps.slowBodyMillis ?? SLOW_BODY_MILLIS;
  const perAddress = new Map<string, Group>();
  const accepted = new Map<Socket, Accepted>();
  const refusedSockets = new Set<Socket>();
  // Addresses that abandoned a request half sent, and when (insertion order is age: the oldest is dropped
  // first). Bounded like the per-address map, however many addresses an attacker uses.
  const abandoned = new Map<string, number>();
  const rate =
    caps.newConnectionsPerAddressPerSecond === undefined
      ? undefined
      : createConnectionRate({
          perSecond: caps.newConnectionsPerAddressPerSecond,
          burst: caps.maxConnectionsPerAddress,
          maxAddresses: caps.maxConnections,
          ...(caps.now === undefined ? {} : { now: caps.now }),
        });
  // Per address, its connections waiting for a token, oldest first, and the timer that reads the next.
  const waitingOf = new Map<string, { line: Waiting[]; timer: NodeJS.Timeout | undefined }>();
  let waitingCount = 0;
  let refusedSinceLog = 0;
  let closedSinceLog = 0;
  let waitedSinceLog = 0;
  let lastLogAt = 0;

  /** A log line, at most one a second, with the refusals and closings since the last. */
  const note = (message: string, fields: Record<string, unknown>): void => {
    const now = Date.now();
    if (now - lastLogAt < LOG_EVERY_MILLIS) return;
    lastLogAt = now;
    log.warn(
      {
        ...fields,
        open: accepted.size,
        refused: refusedSinceLog,
        closedIdle: closedSinceLog,
        waited: waitedSinceLog,
      },
      message,
    );
    refusedSinceLog = 0;
    closedSinceLog = 0;
    waitedSinceLog = 0;
  };

  const refuse = (socket: Socket, reason: BusyReason, address: string): void => {
    refusedSinceLog++;
    note('connection refused: too many connections', { reason, address });
    socket.on('error', () => undefined);
    // Refused sockets still being answered are bounded too, or a connection flood would hold descriptors.
    if (refusedSockets.size >= caps.maxConnections) {
      socket.destroy();
      return;
    }
    refusedSockets.add(socket);
    // A fixed deadline, not an idle timer: a client that keeps sending a byte now and then must not stay.
    const deadline = setTimeout(() => socket.destroy(), lingerMillis);
    deadline.unref();
    socket.once('close', () => {
      clearTimeout(deadline);
      refusedSockets.delete(socket);
    });
    // Half-close after the answer and drop what the client still sends, so that it reads the 503 rather
    // than a reset.
    socket.end(rawBusyResponse(reason));
    socket.resume();
  };

  const release = (socket: Socket, address: string): void => {
    const entry = accepted.get(socket);
    if (entry === undefined) return;
    accepted.delete(socket);
    entry.group.sockets.delete(socket);
    entry.group.idle.delete(socket);
    if (entry.group.sockets.size === 0 && perAddress.get(address) === entry.group) perAddress.delete(address);
  };

  /**
   * Closes a truly idle connection (see the module comment) of the address holding the most, if it holds
   * more than `newcomerHolds + 1`; false if there is none. One pass over the addresses, and over the idle
   * connections of the chosen one (all bounded by `MAX_CONNECTIONS`), whatever a flood makes it do.
   */
  const closeIdle = (newcomerHolds: number): boolean => {
    let chosen: [Socket, string, Group] | undefined;
    for (const [address, group] of perAddress) {
      if (group.sockets.size <= Math.max(newcomerHolds + 1, chosen?.[2].sockets.size ?? 0)) continue;
      const socket = trulyIdle(address, group);
      if (socket !== undefined) chosen = [socket, address, group];
    }
    if (chosen === undefined) return false;
    const [socket, address] = chosen;
    release(socket, address);
    socket.destroy();
    closedSinceLog++;
    note('idle connection closed to make room: too many connections', { address });
    return true;
  };

  /**
   * Makes room within an address's own share: closes one of its connections whose body trickles (see
   * {@link trickling}); false if none does. Its idle connections stay: a newcomer past the share is refused
   * as before, but slow bodies no longer hold the share against the address's other clients (behind a
   * proxy or a NAT, every client of it is one address).
   */
  const closeTrickling = (address: string, group: Group): boolean => {
    const socket = trickling(address, group);
    if (socket === undefined) return false;
    release(socket, address);
    socket.destroy();
    closedSinceLog++;
    note("trickling body's connection closed to make room within its address's share", { address });
    return true;
  };

  /**
   * An idle connection of `group` with no byte of a next request received since its last answer; else a
   * {@link trickling} one.
   */
  const trulyIdle = (address: string, group: Group): Socket | undefined => {
    for (const socket of group.idle) {
      if (socket.bytesRead === accepted.get(socket)?.bytesAtIdle) return socket;
    }
    return trickling(address, group);
  };

  /**
   * A connection of `address`'s `group` whose request has been arriving for the address's grace and is
   * incomplete: a body ({@link Accepted.currentSince}), or the head of a next request on an idle connection
   * ({@link Accepted.idleSince}). The grace is `slowBodyMillis`, none for an address that abandoned one.
   */
  const trickling = (address: string, group: Group): Socket | undefined => {
    const now = performance.now();
    const grace = abandonedRecently(address, now) ? 0 : slowBodyMillis;
    for (const socket of group.sockets) {
      const entry = accepted.get(socket);
      if (entry !== undefined && arrivingSince(socket, entry) <= now - grace) return socket;
    }
    return undefined;
  };

  /** Since when `socket`'s request has been arriving incomplete; `Infinity` if none is. */
  const arrivingSince = (socket: Socket, entry: Accepted): number => {
    const request = entry.current;
    if (request !== undefined) return request.complete ? Infinity : entry.currentSince;
    return entry.inflight === 0 && socket.bytesRead > entry.bytesAtIdle ? entry.idleSince : Infinity;
  };

  const abandonedRecently = (address: string, now: number): boolean => {
    const at = abandoned.get(address);
    if (at === undefined) return false;
    if (now - at < ABANDONED_MEMORY_MILLIS) return true;
    abandoned.delete(address);
    return false;
  };

  /** Remembers that `address` closed a connection with a request half sent and unanswered. */
  const noteAbandoned = (address: string): void => {
    abandoned.delete(address);
    if (abandoned.size >= caps.maxConnections) {
      for (const oldest of abandoned.keys()) {
        abandoned.delete(oldest);
        break;
      }
    }
    abandoned.set(address, performance.now());
  };

  const listeners = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');

  /** Gives `socket` to Node's HTTP handling (and the pipelining bound): from now on its bytes are read. */
  const hand = (socket: Socket): void => {
    for (const listener of listeners) listener.call(server, socket);
  };

  /**
   * `socket`'s address has no token: the connection is held, unread by HTTP, until one of its address's
   * tokens is free, oldest first (`connection-rate.ts`). Its bytes are kept meanwhile, at most
   * {@link WAITING_BYTES}; a client that closes its side gives its place up, as one whose request has
   * arrived whole does not. Reading it is what tells the gateway so, at the cost of a read: a flood that
   * abandons its connections costs their accepting and closing, not their parsing.
   */
  const wait = (socket: Socket, address: string): void => {
    const waiting: Waiting = {
      socket,
      chunks: [],
      bytes: 0,
      onData: (chunk) => {
        waiting.bytes += chunk.length;
        if (waiting.bytes <= WAITING_BYTES) {
          waiting.chunks.push(chunk);
          return;
        }
        unqueue(socket, address);
        release(socket, address);
        refuse(socket, 'new_connections_per_address', address);
      },
      onEnd: () => {
        socket.destroy();
      },
      onError: () => {
        socket.destroy();
      },
    };
    socket.on('data', waiting.onData);
    socket.once('end', waiting.onEnd);
    socket.on('error', waiting.onError);
    const queue = waitingOf.get(address) ?? { line: [], timer: undefined };
    waitingOf.set(address, queue);
    queue.line.push(waiting);
    waitingCount++;
    waitedSinceLog++;
    note("connection waits for its address's share of new connections", { address });
    schedule(address, queue);
  };

  /** Reads the next waiting connection of `address` once it has a token. */
  const schedule = (address: string, queue: { line: Waiting[]; timer: NodeJS.Timeout | undefined }): void => {
    if (queue.timer !== undefined || rate === undefined) return;
    queue.timer = setTimeout(() => {
      queue.timer = undefined;
      admitWaiting(address);
    }, rate.waitOf(address));
    queue.timer.unref();
  };

  const admitWaiting = (address: string): void => {
    const queue = waitingOf.get(address);
    if (queue === undefined || rate === undefined) return;
    for (let waiting = queue.line[0]; waiting !== undefined; waiting = queue.line[0]) {
      if (rate.take(address) !== 0) break;
      queue.line.shift();
      waitingCount--;
      const { socket } = waiting;
      // Paused before its listener goes: a flowing stream with no `data` listener drops what it reads. What
      // it sent is put back in front, and Node's HTTP handling reads it first once resumed.
      socket.pause();
      socket.off('data', waiting.onData);
      socket.off('end', waiting.onEnd);
      socket.off('error', waiting.onError);
      if (waiting.chunks.length > 0) socket.unshift(Buffer.concat(waiting.chunks));
      hand(socket);
      socket.resume();
    }
    if (queue.line.length === 0) waitingOf.delete(address);
    else schedule(address, queue);
  };

  /** Forgets `socket` if it waits (closed, or refused). */
  const unqueue = (socket: Socket, address: string): void => {
    const queue = waitingOf.get(address);
    if (queue === undefined) return;
    const at = queue.line.findIndex((waiting) => waiting.socket === socket);
    if (at < 0) return;
    const [waiting] = queue.line.splice(at, 1);
    waitingCount--;
    if (waiting !== undefined) socket.off('data', waiting.onData);
    if (queue.line.length > 0) return;
    if (queue.timer !== undefined) clearTimeout(queue.timer);
    waitingOf.delete(address);
  };
  server.on('connection', (socket: Socket) => {
    const address = clientNetwork(socket.remoteAddress);
    const group = perAddress.get(address);
    if (
      group !== undefined &&
      group.sockets.size >= caps.maxConnectionsPerAddress &&
      !closeTrickling(address, group)
    ) {
      refuse(socket, 'connections_per_address', address);
      return;
    }
    if (accepted.size >= caps.maxConnections && !closeIdle(group?.sockets.size ?? 0)) {
      refuse(socket, 'connections', address);
      return;
    }
    // Looked up again: closing an idle connection may have emptied (and dropped) this address's group.
    const own = perAddress.get(address) ?? { sockets: new Set<Socket>(), idle: new Set<Socket>() };
    perAddress.set(address, own);
    own.sockets.add(socket);
    own.idle.add(socket);
    accepted.set(socket, {
      address,
      group: own,
      inflight: 0,
      bytesAtIdle: 0,
      current: undefined,
      currentSince: 0,
      idleSince: performance.now(),
    });
    socket.once('close', () => {
      // Closed by the client (or at its request timeout) while a request was half sent and unanswered: a
      // request still in flight has not been answered (its answer's close would have ended it), one
      // arriving has not begun. Connections the gateway closes itself are released first.
      const entry = accepted.get(socket);
      if (entry !== undefined && arrivingSince(socket, entry) !== Infinity) noteAbandoned(address);
      unqueue(socket, address);
      release(socket, address);
    });
    // Read at once when the address has a token and none of its connections waits before this one.
    if (rate === undefined || (!waitingOf.has(address) && rate.take(address) === 0)) hand(socket);
    else wait(socket, address);
  });

  // A request is in flight from its headers (Node parsed it: running, or waiting behind another on its
  // connection, `pipelined-requests.ts`) until its answer is sent or its connection closes.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const entry = accepted.get(request.socket);
    if (entry === undefined) return;
    entry.inflight++;
    entry.group.idle.delete(request.socket);
    entry.current = request;
    entry.currentSince = performance.now();
    response.once('close', () => {
      entry.inflight--;
      if (entry.current === request) entry.current = undefined;
      // Idle again, unless it has gone (released) in the meantime; bytes read after this are a next request.
      if (entry.inflight === 0 && accepted.get(request.socket) === entry) {
        entry.bytesAtIdle = request.socket.bytesRead;
        entry.idleSince = performance.now();
        entry.group.idle.add(request.socket);
      }
    });
  });

  // `server.close()` waits for every socket before it calls back, but closes only the idle keep-alive ones
  // Node's HTTP server knows: a refused socket, or one that has not sent a whole request yet (nothing at
  // all, or headers a byte at a time), would hold a shutdown for its whole grace period.
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const socket of refusedSockets) socket.destroy();
    refusedSockets.clear();
    for (const [socket, entry] of accepted) {
      if (entry.inflight > 0) continue;
      release(socket, entry.address);
      socket.destroy();
    }
    return close(callback);
  };

  return {
    open: () => accepted.size,
    addresses: () => perAddress.size,
    lingering: () => refusedSockets.size,
    waiting: () => waitingCount,
  };
}
