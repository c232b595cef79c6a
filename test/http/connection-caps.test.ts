/**
 * The connection caps and the request-body budget on a bare Fastify server with tiny limits, driven by raw
 * sockets from several loopback addresses (Linux routes all of 127/8 to lo): each bound answers 503
 * `GATEWAY_BUSY` with its reason, a per-address bound costs only that address, reservations are released
 * when answers are sent, and the per-address maps are empty once every connection has closed.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerBodyBudget, type BodyBudget } from '../../src/http/body-budget.ts';
import { limitConnections, type ConnectionCounts } from '../../src/http/connection-limits.ts';

interface RawClient {
  socket: Socket;
  received: () => string;
  connected: Promise<void>;
}

let app: FastifyInstance | undefined;
const clients: RawClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  await app?.close();
  app = undefined;
});

/** A raw connection from `localAddress` that sends `text` once connected. */
function rawClient(port: number, localAddress: string, text = ''): RawClient {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve) => {
    socket.once('connect', () => {
      if (text !== '') socket.write(text);
      resolve();
    });
  });
  const client = { socket, received: () => received, connected };
  clients.push(client);
  return client;
}

/** A POST declaring `declared` bytes of body and sending none yet. */
const postHead = (declared: number) =>
  `POST /echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`;

async function startServer(setUp: (server: FastifyInstance) => void): Promise<number> {
  app = Fastify();
  setUp(app);
  app.post('/echo', (request) => ({ got: request.body }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const reasonOf = (text: string) => /"reason":"(\w+)"/.exec(text)?.[1];

describe('connection caps', () => {
  it('should refuse past the per-address cap and the total with their reasons, and forget closed addresses', async () => {
    let counts: ConnectionCounts | undefined;
    const port = await startServer((server) => {
      counts = limitConnections(
        server.server,
        { maxConnections: 3, maxConnectionsPerAddress: 2 },
        server.log,
      );
    });
    const held = [rawClient(port, '127.0.0.1'), rawClient(port, '127.0.0.1')];
    await Promise.all(held.map((client) => client.connected));
    const sameAddress = rawClient(port, '127.0.0.1');
    const otherAddress = rawClient(port, '127.0.0.2');
    await Promise.all([sameAddress.connected, otherAddress.connected]);
    const third = rawClient(port, '127.0.0.3');
    await third.connected;
    await sleep(100);

    expect(reasonOf(sameAddress.received())).toBe('connections_per_address');
    expect(sameAddress.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(otherAddress.received()).toBe('');
    expect(reasonOf(third.received())).toBe('connections');
    expect(third.received()).toContain('"blame":"gateway"');
    expect(counts?.open()).toBe(3);

    for (const client of clients) client.socket.destroy();
    await sleep(100);
    expect(counts?.open()).toBe(0);
    expect(counts?.addresses()).toBe(0);
  });
});

describe('the per-address count', () => {
  it('should hold no more addresses than MAX_CONNECTIONS, however many addresses connect', async () => {
    let counts: ConnectionCounts | undefined;
    const port = await startServer((server) => {
      counts = limitConnections(
        server.server,
        { maxConnections: 5, maxConnectionsPerAddress: 1 },
        server.log,
      );
    });
    let most = 0;
    for (let host = 10; host < 40; host++) {
      const client = rawClient(port, `127.0.0.${String(host)}`);
      await client.connected;
      most = Math.max(most, counts?.addresses() ?? 0);
    }
    await sleep(100);
    const refused = clients.filter((client) => reasonOf(client.received()) === 'connections');
    expect(most).toBeLessThanOrEqual(5);
    expect(counts?.addresses()).toBe(5);
    expect(refused).toHaveLength(25);
  });
});

describe('request-body budget', () => {
  it('should reserve declared bodies per address and in all, and release them with the answer', async () => {
    let budget: BodyBudget | undefined;
    const port = await startServer((server) => {
      budget = registerBodyBudget(server, {
        maxInflightBodyBytes: 3_000,
        maxInflightBodyBytesPerAddress: 2_000,
        maxBodyBytes: 1_024,
      });
    });
    const first = rawClient(port, '127.0.0.1', postHead(1_000));
    const second = rawClient(port, '127.0.0.1', postHead(1_000));
    await Promise.all([first.connected, second.connected]);
    await sleep(100);
    const overAddress = rawClient(port, '127.0.0.1', postHead(10));
    const otherAddress = rawClient(port, '127.0.0.2', postHead(1_000));
    await Promise.all([overAddress.connected, otherAddress.connected]);
    await sleep(100);
    const overTotal = rawClient(port, '127.0.0.3', postHead(10));
    await overTotal.connected;
    await sleep(100);

    expect(reasonOf(overAddress.received())).toBe('body_bytes_per_address');
    expect(overAddress.received()).toContain('"blame":"caller"');
    expect(otherAddress.received()).toBe('');
    expect(reasonOf(overTotal.received())).toBe('body_bytes');
    expect(overTotal.received()).toContain('"blame":"gateway"');
    expect(budget?.inflight()).toBe(3_000);

    // The first body arrives: its answer is sent and its reservation released.
    first.socket.write(`{"a":"${'x'.repeat(992)}"}`);
    await sleep(100);
    expect(first.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(budget?.inflight()).toBe(2_000);
    const later = rawClient(port, '127.0.0.3', `${postHead(2)}{}`);
    await later.connected;
    await sleep(100);
    expect(later.received()).toMatch(/^HTTP\/1\.1 200 /);

    for (const client of clients) client.socket.destroy();
    await sleep(100);
    expect(budget?.inflight()).toBe(0);
    expect(budget?.addresses()).toBe(0);
  });
});
