/**
 * Slow bodies from many addresses (the fair-share tests' attacker, and `bench/connection-churn.ts`), on a thread of its own (so that the attacker's thousands of sockets do
 * not slow the test's own event loop, which also runs the emulator and the victim): for every port and
 * address, `perAddress` connections that each send a POST's head and the start of its body, then one byte
 * of it every `trickleMillis`, never the whole. A connection the server closes (refused, cut at its request
 * timeout, or closed to make room) is opened again `reconnectMillis` later, so the attacker keeps every
 * place it can get. Counts how each connection ended: by the status answered, or `closed unanswered`.
 */
import { Worker } from 'node:worker_threads';

/** Options of {@link startSlowBodyFlood}. */
export interface SlowBodyFloodOptions {
  /** The replicas' ports: every address holds `perAddress` connections at each. */
  ports: readonly number[];
  /** The local addresses the connections leave from (127.0.0.0/8: each another client). */
  addresses: readonly string[];
  perAddress: number;
  /** The body length declared (within `MAX_BODY_BYTES`). */
  declaredBytes: number;
  trickleMillis: number;
  reconnectMillis: number;
  /**
   * The flood closes each connection itself this long after opening it, and opens the next at once: every
   * body stays younger than the gateway's grace for slow bodies. Default: never.
   */
  abandonAfterMillis?: number;
  /** Opens nothing until resumed. */
  paused?: boolean;
}

/**
 * A running flood: paused, every connection is closed and none opened until resumed; {@link
 * SlowBodyFlood.held} answers, per port, the connections open that the server has answered nothing on;
 * {@link SlowBodyFlood.opened} how many connections it has opened in all; {@link SlowBodyFlood.stop} ends it
 * and answers how the connections the server ended, ended (by status; 0: closed with nothing answered).
 */
export interface SlowBodyFlood {
  pause(): void;
  resume(): void;
  held(): Promise<number[]>;
  opened(): Promise<number>;
  stop(): Promise<Map<number, number>>;
}

const FLOOD_SOURCE = `
const { connect } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { ports, addresses, perAddress, declaredBytes, trickleMillis, reconnectMillis, abandonAfterMillis } = workerData;
const head = 'POST /graphql HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\ncontent-type: application/json\\r\\n' +
  'content-length: ' + declaredBytes + '\\r\\n\\r\\n{"query":"';
const outcomes = new Map();
const held = ports.map(() => new Set());
const sockets = new Set();
let stopped = false;
let opened = 0;
let paused = workerData.paused === true;
let waiting = [];
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));
const trickle = setInterval(() => {
  for (const set of held) for (const socket of set) socket.write('x');
}, trickleMillis);
const slot = async (portIndex, localAddress) => {
  while (!stopped) {
    if (paused) {
      await new Promise((resolve) => waiting.push(resolve));
      continue;
    }
    await new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: ports[portIndex], localAddress });
      sockets.add(socket);
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('connect', () => {
        opened++;
        socket.write(head);
        if (answer === '') held[portIndex].add(socket);
        if (abandonAfterMillis !== undefined) {
          setTimeout(() => {
            socket.abandoned = true;
            socket.destroy();
          }, abandonAfterMillis);
        }
      });
      socket.on('data', (chunk) => {
        held[portIndex].delete(socket);
        answer += chunk;
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        held[portIndex].delete(socket);
        // Closed by the flood itself (paused or stopped): not the server's doing.
        if (!socket.closedByFlood && !socket.abandoned) {
          const status = /^HTTP\\/1\\.1 (\\d{3})/.exec(answer)?.[1];
          const outcome = status === undefined ? 'closed unanswered' : status;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
        resolve();
      });
    });
    if (!stopped && !paused) await sleep(reconnectMillis);
  }
};
const closeAll = () => {
  for (const socket of sockets) {
    socket.closedByFlood = true;
    socket.destroy();
  }
};
const slots = [];
for (let port = 0; port < ports.length; port++)
  for (const address of addresses)
    for (let i = 0; i < perAddress; i++) slots.push(slot(port, address));
parentPort.on('message', async (message) => {
  if (message === 'held') parentPort.postMessage(held.map((set) => set.size));
  if (message === 'opened') parentPort.postMessage(opened);
  if (message === 'pause') {
    paused = true;
    closeAll();
  }
  if (message === 'resume') {
    paused = false;
    for (const resolve of waiting.splice(0)) resolve();
  }
  if (message !== 'stop') return;
  stopped = true;
  paused = false;
  closeAll();
  for (const resolve of waiting.splice(0)) resolve();
  clearInterval(trickle);
  await Promise.all(slots);
  parentPort.postMessage([...outcomes]);
});
`;

/** Starts the flood. */
export function startSlowBodyFlood(options: SlowBodyFloodOptions): SlowBodyFlood {
  const worker = new Worker(FLOOD_SOURCE, { eval: true, workerData: options });
  const ask = <T>(message: string): Promise<T> => {
    const answer = new Promise<T>((resolve) => {
      worker.once('message', resolve);
    });
    worker.postMessage(message);
    return answer;
  };
  return {
    pause: () => {
      worker.postMessage('pause');
    },
    resume: () => {
      worker.postMessage('resume');
    },
    held: () => ask<number[]>('held'),
    opened: () => ask<number>('opened'),
    stop: async () => {
      const outcomes = await ask<[number | string, number][]>('stop');
      await worker.terminate();
      // Statuses by number; a connection closed with nothing answered as 0.
      return new Map(outcomes.map(([outcome, count]) => [Number(outcome) || 0, count]));
    },
  };
}
