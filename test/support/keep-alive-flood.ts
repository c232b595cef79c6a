/**
 * A flooding client for the CPU-share tests, on a thread of its own (so that the flood is as fast as the
 * attacker's machine, not slowed by the test's own event loop, which also runs the emulator and the
 * victim): connections that each write `batch` copies of one raw request at once (HTTP/1.1 pipelining),
 * read their answers and write the next batch on the same connection, until stopped; a connection the
 * server closes is opened again. Counts answers by status.
 */
import { Worker } from 'node:worker_threads';

/** A running flood: {@link KeepAliveFlood.stop} ends it and answers how many answers of each status it read. */
export interface KeepAliveFlood {
  /** Stops writing new batches (the connections stay open) until {@link KeepAliveFlood.resume}. */
  pause(): void;
  resume(): void;
  stop(): Promise<Map<number, number>>;
}

/** Options of {@link startKeepAliveFlood}. */
export interface KeepAliveFloodOptions {
  /** The gateway's port, or several replicas' ports: the connections are spread over them in turn. */
  port: number | readonly number[];
  /** The raw requests (`rawJsonPost`), written in turn (distinct patterns, distinct pages). */
  requests: string[];
  connections: number;
  /** Requests written at once on a connection (at most 1 + `MAX_PIPELINED_REQUESTS` to stay unrefused). */
  batch: number;
  /**
   * The local address the connections leave from (`127.0.0.2`: another client), or several: connection `i`
   * leaves from the `i`-th in turn (many clients, each within its own share).
   */
  localAddress: string | readonly string[];
}

const FLOOD_SOURCE = `
const { connect } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { port, requests, connections, batch, localAddress } = workerData;
let next = 0;
const nextBatch = () => {
  let text = '';
  for (let i = 0; i < batch; i++) text += requests[next++ % requests.length];
  return text;
};
const statuses = new Map();
let stopped = false;
let paused = false;
const parked = new Set();
const sockets = new Set();
const ports = Array.isArray(port) ? port : [port];
const loop = async (_, index) => {
  while (!stopped) {
    await new Promise((resolve) => {
      const from = Array.isArray(localAddress) ? localAddress[index % localAddress.length] : localAddress;
      const socket = connect({ host: '127.0.0.1', port: ports[index % ports.length], localAddress: from });
      sockets.add(socket);
      let buffer = Buffer.alloc(0);
      let answered = 0;
      socket.on('connect', () => socket.write(nextBatch()));
      socket.on('data', (chunk) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const headEnd = buffer.indexOf('\\r\\n\\r\\n');
          if (headEnd < 0) break;
          const head = buffer.subarray(0, headEnd).toString('latin1');
          const length = Number(/\\r\\ncontent-length:\\s*(\\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < headEnd + 4 + length) break;
          const status = Number(/^HTTP\\/1\\.1 (\\d{3})/.exec(head)?.[1] ?? 0);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          buffer = buffer.subarray(headEnd + 4 + length);
          answered++;
        }
        if (answered === batch) {
          answered = 0;
          if (stopped) socket.destroy();
          else if (paused) parked.add(socket);
          else socket.write(nextBatch());
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        resolve();
      });
    });
  }
};
const loops = Array.from({ length: connections }, loop);
parentPort.on('message', async (message) => {
  if (message === 'pause') paused = true;
  if (message === 'resume') {
    paused = false;
    for (const socket of parked) socket.write(nextBatch());
    parked.clear();
  }
  if (message !== 'stop') return;
  stopped = true;
  for (const socket of sockets) socket.destroy();
  await Promise.all(loops);
  parentPort.postMessage([...statuses]);
});
`;

/** Starts the flood. */
export function startKeepAliveFlood(options: KeepAliveFloodOptions): KeepAliveFlood {
  const worker = new Worker(FLOOD_SOURCE, { eval: true, workerData: options });
  return {
    pause: () => {
      worker.postMessage('pause');
    },
    resume: () => {
      worker.postMessage('resume');
    },
    stop: async () => {
      const statuses = new Promise<[number, number][]>((resolve) => {
        worker.once('message', resolve);
      });
      worker.postMessage('stop');
      const answered = await statuses;
      await worker.terminate();
      return new Map(answered);
    },
  };
}
