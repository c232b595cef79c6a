/**
 * The connection caps and the request-body budget on a bare Fastify server with tiny limits, driven by raw
 * sockets from several loopback addresses (Linux routes all of 127/8 to lo): each bound answers 503
 * `GATEWAY_BUSY` with its reason, a per-address bound costs only that address, idle connections of the
 * biggest holder make room for newcomers holding fewer (never a connection with a request running or
 * arriving, nor an address's only one), declared bodies cost only their address and arrived bytes the
 * total, refused sockets never linger, reservations are released when answers are sent, and the
 * per-address maps are empty once every connection has closed. Every step waits for the server's event
 * (a request begun, an answer received, a count reached), never for a fixed time, so a loaded machine only
 * makes it slower.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerBodyBudget, type BodyBudget } from '../../src/http/capacity/body-budget.ts';
import { registerErrorHandler } from '../../src/http/error-handler.ts';
import {
  WAITING_BYTES,
  limitConnections,
  type ConnectionCaps,
  type ConnectionCounts,
} from '../../src/http/capacity/connection-limits.ts';
import { listenWithHeldRoute } from '../support/listen-with-held-route.ts';
import { rawClient as openRawClient, type RawClient } from '../support/raw-http-client.ts';

let app: FastifyInstance | undefined;
const clients: RawClient[] = [];
let held = Promise.withResolvers<undefined>();
/** Requests whose head the server has read (its `onRequest` hooks ran), bodies still arriving included. */
let begun = 0;

afterEach(async () => {
  held.resolve(undefined);
  held = Promise.withResolvers<undefined>();
  for (const client of clients.splice(0)) client.socket.destroy();
  await app?.close();
  app = undefined;
});

/** {@link openRawClient}, destroyed after the test. */
function rawClient(port: number, localAddress: string, text = ''): RawClient {
  const client = openRawClient(port, localAddress, text);
  clients.push(client);
  return client;
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`;
const isClosed = (client: RawClient) => client.socket.destroyed || client.socket.readableEnded;

/** A POST declaring `declared` bytes of body and sending none yet. */
const postHead = (declared: number) =>
  `POST /echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`;

/** The caps {@link runningAndTrickling} fills: eight connections in all, four per address. */
const TRICKLING_CAPS = { maxConnections: 8, maxConnectionsPerAddress: 4 } as const;

/**
 * One request running (`/hold`, from 127.0.0.8), then seven connections from two addresses each sending one
 * byte of a 1,000-byte body; answers once the server has begun all eight.
 */
async function runningAndTrickling(port: number): Promise<{ running: RawClient; slow: RawClient[] }> {
  const running = rawClient(port, '127.0.0.8', GET('/hold'));
  await running.connected;
  const slow = Array.from({ length: 7 }, (_, index) =>
    rawClient(port, `127.0.0.${String(2 + (index % 2))}`, `${postHead(1_000)}{`),
  );
  await Promise.all(slow.map((client) => client.connected));
  await expect.poll(() => begun).toBe(8);
  return { running, slow };
}

async function startServer(setUp: (server: FastifyInstance) => void): Promise<number> {
  app = Fastify();
  begun = 0;
  setUp(app);
  // After the hooks under test: once this runs, they have seen the request.
  app.addHook('onRequest', (_request, _reply, done) => {
    begun++;
    done();
  });
  app.post('/echo', (request) => ({ got: request.body }));
  // `/hold` is held until the test lets go: a request in flight.
  return listenWithHeldRoute(app, () => held.promise);
}

/** A server with {@link limitConnections} at `caps`, and its counts. */
async function startLimited(caps: ConnectionCaps): Promise<{ port: number; counts: ConnectionCounts }> {
  let counts: ConnectionCounts | undefined;
  const port = await startServer((server) => {
    counts = limitConnections(server.server, caps, server.log);
  });
  if (counts === undefined) throw new Error('limitConnections was not called');
  return { port, counts };
}

/** One idle connection holding 127.0.0.1's only place, and a refused one that keeps sending a byte every 400 ms. */
async function refusedWhileTrickling(port: number): Promise<{ refused: RawClient; trickle: NodeJS.Timeout }> {
  const holder = rawClient(port, '127.0.0.1');
  await holder.connected;
  const refused = rawClient(port, '127.0.0.1');
  await refused.connected;
  return { refused, trickle: setInterval(() => refused.socket.write('x'), 400) };
}

/** Three requests in a row from another address (127.0.0.9) are each answered 200 within 2 s. */
async function expectVictimServed(port: number, connections: 'close each' | 'keep them open'): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const victim = await expectLetIn(port, '127.0.0.9');
    if (connections === 'close each') victim.socket.destroy();
  }
}

/** A newcomer from `address`: a GET expected let in, answered 200. */
async function expectLetIn(port: number, address: string): Promise<RawClient> {
  const newcomer = rawClient(port, address, GET('/quick'));
  await newcomer.connected;
  await expect.poll(() => newcomer.received()).toMatch(/^HTTP\/1\.1 200 /);
  return newcomer;
}

/**
 * Newcomers from `addresses`, one after another, each kept open: each is let in, and one more of `closable`
 * closed for it.
 */
async function expectLetInClosing(
  port: number,
  addresses: readonly string[],
  closable: readonly RawClient[],
): Promise<void> {
  for (const [index, address] of addresses.entries()) {
    await expectLetIn(port, address);
    await expect.poll(() => closable.filter(isClosed).length).toBe(index + 1);
  }
}

/** A newcomer from `address`: a GET expected refused for `reason`. */
async function expectRefused(port: number, address: string, reason: string): Promise<void> {
  const newcomer = rawClient(port, address, GET('/quick'));
  await newcomer.connected;
  await expect.poll(() => reasonOf(newcomer.received())).toBe(reason);
}

/**
 * Expects `running` (the connection of the held request) never closed for others, then lets the request go
 * and expects it answered 200.
 */
async function expectAnsweredOnceLetGo(running: RawClient): Promise<void> {
  expect(isClosed(running)).toBe(false);
  held.resolve(undefined);
  await expect.poll(() => running.received()).toMatch(/^HTTP\/1\.1 200 /);
}

const reasonOf = (text: string) => /"reason":"(\w+)"/.exec(text)?.[1];

describe('connection caps', () => {
  it('should refuse past the per-address share, and make room for another address by closing an idle connection of the biggest holder', async () => {
    const { port, counts } = await startLimited({ maxConnections: 3, maxConnectionsPerAddress: 2 });
    const biggest = [rawClient(port, '127.0.0.1'), rawClient(port, '127.0.0.1')];
    await Promise.all(biggest.map((client) => client.connected));
    const sameAddress = rawClient(port, '127.0.0.1');
    const otherAddress = rawClient(port, '127.0.0.2');
    await Promise.all([sameAddress.connected, otherAddress.connected]);
    await expect.poll(() => reasonOf(sameAddress.received())).toBe('connections_per_address');
    expect(sameAddress.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(sameAddress.received()).toContain('"blame":"caller"');
    await expect.poll(() => counts.open()).toBe(3);

    // The total is reached: a newcomer is let in, and one of 127.0.0.1's idle connections closed instead.
    await expectLetIn(port, '127.0.0.3');
    await expect.poll(() => biggest.filter(isClosed).length).toBe(1);
    expect(isClosed(otherAddress)).toBe(false);
    expect(counts.open()).toBe(3);

    for (const client of clients) client.socket.destroy();
    await expect.poll(() => counts.open()).toBe(0);
    expect(counts.addresses()).toBe(0);
  });

  it('should refuse the total, blaming the gateway, only when every connection has a request in flight', async () => {
    const { port } = await startLimited({ maxConnections: 2, maxConnectionsPerAddress: 2 });
    const busy = [rawClient(port, '127.0.0.1', GET('/hold')), rawClient(port, '127.0.0.2', GET('/hold'))];
    await Promise.all(busy.map((client) => client.connected));
    await expect.poll(() => begun).toBe(2);
    const third = rawClient(port, '127.0.0.3');
    await third.connected;
    await expect.poll(() => reasonOf(third.received())).toBe('connections');
    expect(third.received()).toContain('"blame":"gateway"');
    expect(busy.filter(isClosed)).toHaveLength(0);
    held.resolve(undefined);
    await expect
      .poll(() => busy.map((client) => client.received()))
      .toEqual([expect.stringMatching(/^HTTP\/1\.1 200 /), expect.stringMatching(/^HTTP\/1\.1 200 /)]);
  });

  it('should never close a connection whose request runs, or whose body began arriving within slowBodyMillis: the newcomer is refused instead', async () => {
    const { port } = await startLimited({ ...TRICKLING_CAPS, slowBodyMillis: 3_600_000 });
    // One request runs (held); seven connections from two addresses send one byte of a 1,000-byte body.
    const { running, slow } = await runningAndTrickling(port);
    await expectRefused(port, '127.0.0.9', 'connections');
    expect(slow.filter(isClosed)).toHaveLength(0);
    await expectAnsweredOnceLetGo(running);
  });

  it('should close a trickling body of the biggest holder like an idle connection, never a running request, to let a newcomer in', async () => {
    // slowBodyMillis 0: every body still incomplete trickles (the default waits a second for it).
    const { port, counts } = await startLimited({ ...TRICKLING_CAPS, slowBodyMillis: 0 });
    // One request runs (held); seven connections from two addresses send one byte of a 1,000-byte body, and no more.
    const { running, slow } = await runningAndTrickling(port);
    // Three newcomers from three addresses, each kept open: each is let in, a trickling body closed for it.
    await expectLetInClosing(port, ['127.0.0.9', '127.0.0.10', '127.0.0.11'], slow);
    // The request that runs is never the one closed.
    expect(counts.open()).toBeLessThanOrEqual(8);
    await expectAnsweredOnceLetGo(running);
  });

  it('should close a trickling body of an address at its share to let another connection of that address in, never an idle or running one', async () => {
    const { port, counts } = await startLimited({
      maxConnections: 64,
      maxConnectionsPerAddress: 4,
      slowBodyMillis: 200,
    });
    // 127.0.0.2 (a proxy, say) holds its share: a running request, an idle connection and two bodies
    // that sent one byte of 1,000.
    const running = rawClient(port, '127.0.0.2', GET('/hold'));
    const idle = rawClient(port, '127.0.0.2');
    const slow = [0, 1].map(() => rawClient(port, '127.0.0.2', `${postHead(1_000)}{`));
    await Promise.all([running, idle, ...slow].map((client) => client.connected));
    await expect.poll(() => begun).toBe(3);
    // Within slowBodyMillis the bodies are still arriving: the address's newcomer is refused.
    await expectRefused(port, '127.0.0.2', 'connections_per_address');
    await sleep(300);
    // Past it they trickle: each newcomer of that address is let in, a trickling body closed for it.
    await expectLetInClosing(port, ['127.0.0.2', '127.0.0.2'], slow);
    // With no body trickling any more, the share holds: the next is refused, the idle and running stay.
    await expectRefused(port, '127.0.0.2', 'connections_per_address');
    expect(isClosed(idle)).toBe(false);
    expect(counts.open()).toBeLessThanOrEqual(4);
    await expectAnsweredOnceLetGo(running);
  });

  it('should take the grace from an address that abandoned a body half sent: its incomplete bodies are closed for a newcomer at once, not another address’s', async () => {
    // A grace of an hour: only the address's own abandonment can make its bodies closable.
    const { port, counts } = await startLimited({ ...TRICKLING_CAPS, slowBodyMillis: 3_600_000 });
    // 127.0.0.2 sends a body's first byte, then closes the connection (an attacker reopening each slow body
    // before the grace ends).
    const quitter = rawClient(port, '127.0.0.2', `${postHead(1_000)}{`);
    await expect.poll(() => begun).toBe(1);
    quitter.socket.destroy();
    await expect.poll(() => counts.open()).toBe(0);
    // One request runs; four bodies from 127.0.0.2 and three from 127.0.0.3 fill the total.
    begun = 0;
    const { running, slow } = await runningAndTrickling(port);
    const fromQuitter = slow.filter((_, index) => index % 2 === 0);
    const fromOther = slow.filter((_, index) => index % 2 === 1);
    await expectLetInClosing(port, ['127.0.0.9', '127.0.0.10'], fromQuitter);
    expect(fromOther.filter(isClosed)).toHaveLength(0);
    await expectAnsweredOnceLetGo(running);
  });

  it('should take the grace from an address that abandoned a request head half sent, and close its trickling heads', async () => {
    const { port, counts } = await startLimited({
      maxConnections: 4,
      maxConnectionsPerAddress: 4,
      slowBodyMillis: 3_600_000,
    });
    const heads = (address: string) => Array.from({ length: 4 }, () => rawClient(port, address, 'GET /qu'));
    // Four connections from 127.0.0.4 each send half a head: within the grace, a newcomer is refused.
    const first = heads('127.0.0.4');
    await expect.poll(() => counts.open()).toBe(4);
    await expectRefused(port, '127.0.0.9', 'connections');
    // It abandons them and sends four more: now a newcomer is let in, one of its heads closed for it.
    for (const client of first) client.socket.destroy();
    await expect.poll(() => counts.open()).toBe(0);
    const second = heads('127.0.0.4');
    await expect.poll(() => counts.open()).toBe(4);
    await expectLetIn(port, '127.0.0.10');
    expect(second.filter(isClosed)).toHaveLength(1);
  });

  it("should never close a client's only keep-alive connection for others, nor one whose next request is arriving", async () => {
    const { port, counts } = await startLimited({ maxConnections: 8, maxConnectionsPerAddress: 4 });
    // The victim: one keep-alive connection, answered once, then idle between its requests.
    const victim = rawClient(port, '127.0.0.9', GET('/quick'));
    await expect.poll(() => victim.received()).toMatch(/^HTTP\/1\.1 200 /);
    // A second client, answered once, has sent the first bytes of its next request.
    const arriving = rawClient(port, '127.0.0.7', GET('/quick'));
    await expect.poll(() => arriving.received()).toMatch(/^HTTP\/1\.1 200 /);
    arriving.socket.write('GET /qu');
    // Two addresses fill the rest with slow bodies, then keep knocking with more.
    const slow = Array.from({ length: 6 }, (_, index) =>
      rawClient(port, `127.0.0.${String(2 + (index % 2))}`, `${postHead(1_000)}{`),
    );
    await Promise.all(slow.map((client) => client.connected));
    // The victim's request, the other's first one and its next one's head not yet whole, the six slow bodies.
    await expect.poll(() => begun).toBe(8);
    expect(counts.open()).toBe(8);
    const knocking = Array.from({ length: 4 }, (_, index) =>
      rawClient(port, `127.0.0.${String(2 + (index % 3))}`, `${postHead(1_000)}{`),
    );
    await Promise.all(knocking.map((client) => client.connected));
    await expect
      .poll(() => knocking.map((client) => reasonOf(client.received())))
      .toEqual(Array<string>(4).fill('connections'));
    expect(isClosed(victim)).toBe(false);
    expect(isClosed(arriving)).toBe(false);
    // The victim's next requests are served on the same connection, and the other one's finishes.
    for (let round = 2; round <= 4; round++) {
      victim.socket.write(GET('/quick'));
      await expect.poll(() => victim.received().split('HTTP/1.1 200 ').length - 1).toBe(round);
    }
    arriving.socket.write('ick HTTP/1.1\r\nhost: x\r\n\r\n');
    await expect.poll(() => arriving.received().split('HTTP/1.1 200 ').length - 1).toBe(2);
    expect(knocking.map((client) => reasonOf(client.received()))).toEqual(
      Array<string>(4).fill('connections'),
    );
  });

  it('should keep serving another address when several addresses fill the total with idle sockets', async () => {
    const { port, counts } = await startLimited({ maxConnections: 16, maxConnectionsPerAddress: 4 });
    // 127.0.0.2-5 fill the total: half send nothing, half one request and then idle on keep-alive.
    const attackers = Array.from({ length: 16 }, (_, index) =>
      rawClient(port, `127.0.0.${String(2 + (index % 4))}`, index % 2 === 0 ? '' : GET('/quick')),
    );
    await Promise.all(attackers.map((client) => client.connected));
    await expect.poll(() => [counts.open(), begun]).toEqual([16, 8]);
    await expectVictimServed(port, 'keep them open');
  });

  it('should destroy a refused connection within about a second even while it keeps sending', async () => {
    const { port, counts } = await startLimited({ maxConnections: 1, maxConnectionsPerAddress: 1 });
    const { refused, trickle } = await refusedWhileTrickling(port);
    try {
      await expect.poll(() => refused.socket.destroyed || refused.socket.readableEnded).toBe(true);
      await expect.poll(() => counts.lingering()).toBe(0);
    } finally {
      clearInterval(trickle);
    }
    expect(reasonOf(refused.received())).toBe('connections_per_address');
  });

  it('should destroy lingering refused connections, and accepted ones that sent nothing, when the server closes', async () => {
    const { port, counts } = await startLimited({
      maxConnections: 1,
      maxConnectionsPerAddress: 1,
      refusedLingerMillis: 600_000,
    });
    const { trickle } = await refusedWhileTrickling(port);
    try {
      await expect.poll(() => counts.lingering()).toBe(1);
      // The holder has sent nothing: Node's own close would wait for it too.
      const closing = app?.close();
      app = undefined;
      // Without the refused socket destroyed, this waits as long as the client keeps it open.
      await expect(
        Promise.race([closing, sleep(5_000).then(() => Promise.reject(new Error('close waited')))]),
      ).resolves.toBeUndefined();
      expect(counts.lingering()).toBe(0);
      expect(counts.open()).toBe(0);
    } finally {
      clearInterval(trickle);
    }
  });
});

describe('the per-address count', () => {
  it('should hold no more addresses than MAX_CONNECTIONS, however many addresses connect', async () => {
    const { port, counts } = await startLimited({ maxConnections: 5, maxConnectionsPerAddress: 1 });
    let most = 0;
    for (let host = 10; host < 40; host++) {
      const client = rawClient(port, `127.0.0.${String(host)}`);
      await client.connected;
      most = Math.max(most, counts.addresses());
    }
    // An address's only connection is never closed for another's: every newcomer past the total is refused.
    await expect
      .poll(() => clients.map((client) => reasonOf(client.received())).filter(Boolean))
      .toEqual(Array<string>(25).fill('connections'));
    expect(most).toBeLessThanOrEqual(5);
    expect(counts.addresses()).toBe(5);
    expect(counts.open()).toBe(5);
  });
});

describe('request-body budget', () => {
  // 1,000 connections: an even share of 3 bytes, so these bodies are counted as they arrive.
  const startBudget = async (
    maxConnections = 1_000,
  ): Promise<{ port: number; budget: () => BodyBudget | undefined }> => {
    let budget: BodyBudget | undefined;
    const port = await startServer((server) => {
      registerErrorHandler(server, { maxBodyBytes: 1_024 });
      budget = registerBodyBudget(server, {
        maxInflightBodyBytes: 3_000,
        maxInflightBodyBytesPerAddress: 2_000,
        maxBodyBytes: 1_024,
        maxConnections,
      });
    });
    return { port, budget: () => budget };
  };

  it('should reserve declared bodies per address, and release them with the answer', async () => {
    const { port, budget } = await startBudget();
    const first = rawClient(port, '127.0.0.1', postHead(1_000));
    const second = rawClient(port, '127.0.0.1', postHead(1_000));
    await Promise.all([first.connected, second.connected]);
    await expect.poll(() => begun).toBe(2);
    const overAddress = rawClient(port, '127.0.0.1', postHead(10));
    const otherAddress = rawClient(port, '127.0.0.2', postHead(1_000));
    await Promise.all([overAddress.connected, otherAddress.connected]);
    await expect.poll(() => [reasonOf(overAddress.received()), begun]).toEqual(['body_bytes_per_address', 3]);
    expect(overAddress.received()).toContain('"blame":"caller"');
    expect(otherAddress.received()).toBe('');
    expect(budget()?.addresses()).toBe(2);

    // The first body arrives: its answer is sent and its reservation released.
    first.socket.write(`{"a":"${'x'.repeat(992)}"}`);
    await expect.poll(() => first.received()).toMatch(/^HTTP\/1\.1 200 /);
    const again = rawClient(port, '127.0.0.1', `${postHead(2)}{}`);
    await again.connected;
    await expect.poll(() => again.received()).toMatch(/^HTTP\/1\.1 200 /);

    for (const client of clients) client.socket.destroy();
    await expect.poll(() => [budget()?.inflight(), budget()?.addresses()]).toEqual([0, 0]);
  });

  it("should count a body within one connection's even share at its declared length, without a stream", async () => {
    // Three connections: an even share of 1,000 bytes. Three of them can never declare more than the total.
    const { port, budget } = await startBudget(3);
    const small = rawClient(port, '127.0.0.2', postHead(1_000));
    await small.connected;
    await expect.poll(() => budget()?.inflight()).toBe(1_000);
    small.socket.write(`{"a":"${'x'.repeat(992)}"}`);
    await expect.poll(() => small.received()).toMatch(/^HTTP\/1\.1 200 /);
    small.socket.destroy();
    await expect.poll(() => budget()?.inflight()).toBe(0);
  });

  it('should not let declared lengths without bodies, from many addresses, refuse another address', async () => {
    const { port, budget } = await startBudget();
    // Five addresses declare 10,000 bytes in all, more than three times the total, and send none.
    const declared = Array.from({ length: 10 }, (_, index) =>
      rawClient(port, `127.0.0.${String(2 + (index % 5))}`, postHead(1_000)),
    );
    await Promise.all(declared.map((client) => client.connected));
    await expect.poll(() => begun).toBe(10);
    expect(declared.map((client) => client.received())).toEqual(declared.map(() => ''));
    expect(budget()?.inflight()).toBe(0);
    const victim = rawClient(port, '127.0.0.9', `${postHead(7)}{"a":1}`);
    await victim.connected;
    await expect.poll(() => victim.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('should count arrived bytes against the total, refusing the body that does not fit with blame gateway', async () => {
    const { port, budget } = await startBudget();
    const slow = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((address) =>
      rawClient(port, address, `${postHead(1_000)}{"a":"${'x'.repeat(992)}"`),
    );
    await Promise.all(slow.map((client) => client.connected));
    await expect.poll(() => budget()?.inflight()).toBe(2_997);
    const overTotal = rawClient(port, '127.0.0.5', `${postHead(9)}{"a":123}`);
    await overTotal.connected;
    await expect.poll(() => reasonOf(overTotal.received())).toBe('body_bytes');
    expect(overTotal.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(overTotal.received()).toContain('"blame":"gateway"');
    expect(budget()?.inflight()).toBe(2_997);

    // One slow body completes and is answered: its bytes are released and the retry fits.
    slow[0]?.socket.write('}');
    await expect.poll(() => slow[0]?.received()).toMatch(/^HTTP\/1\.1 200 /);
    await expect.poll(() => budget()?.inflight()).toBe(1_998);
    const retry = rawClient(port, '127.0.0.5', `${postHead(9)}{"a":123}`);
    await retry.connected;
    await expect.poll(() => retry.received()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

/**
 * The share of new connections (`MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND`, `connection-rate.ts`) on a clock
 * the test moves: a connection past it is held unread until its address has a token, and then read with
 * whatever it sent meanwhile. A token a millisecond (1,000 a second), so a token is free right after each
 * step of the clock.
 */
describe('the share of new connections', () => {
  let clock = 0;

  /**
   * A server at 16 connections, 4 an address, 1,000 new ones a second on the test's clock; 127.0.0.1's four
   * tokens spent (each connection answered, then closed), then `waiting` opened from it (`text` sent) and
   * seen waiting.
   */
  async function startWithOneWaiting(text: string) {
    clock = 0;
    const { port, counts } = await startLimited({
      maxConnections: 16,
      maxConnectionsPerAddress: 4,
      newConnectionsPerAddressPerSecond: 1_000,
      now: () => clock,
    });
    for (let i = 0; i < 4; i++) (await expectLetIn(port, '127.0.0.1')).socket.destroy();
    const waiting = rawClient(port, '127.0.0.1', text);
    await waiting.connected;
    await expect.poll(() => counts.waiting()).toBe(1);
    return { port, counts, waiting };
  }

  it('should hold a connection past its address’s share unread until a token is free, then answer what it sent meanwhile, while another address is read at once', async () => {
    const { port, counts, waiting } = await startWithOneWaiting(`${postHead(7)}{"a":1}`);
    // Another address has its own share, untouched by 127.0.0.1's.
    await expectLetIn(port, '127.0.0.2');
    expect(waiting.received()).toBe('');
    expect(begun).toBe(5);

    clock += 1;
    await expect.poll(() => waiting.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"got":\{"a":1\}\}$/);
    expect(counts.waiting()).toBe(0);
  });

  it('should read an address’s waiting connections oldest first, one a token', async () => {
    const { port, counts, waiting: first } = await startWithOneWaiting(GET('/quick'));
    const second = rawClient(port, '127.0.0.1', GET('/quick'));
    await second.connected;
    await expect.poll(() => counts.waiting()).toBe(2);

    clock += 1;
    await expect.poll(() => first.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(counts.waiting()).toBe(1);
    expect(second.received()).toBe('');
    clock += 1;
    await expect.poll(() => second.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  // A reset was an unhandled ECONNRESET, a crash, until the waiting connection had an error listener.
  it.each([
    ['closes it', (client: RawClient) => client.socket.end()],
    ['resets it', (client: RawClient) => client.socket.resetAndDestroy()],
  ])(
    'should give a waiting connection’s place up when its client %s, unread, and read the address’s next one',
    async (_how, leave) => {
      const { port, counts, waiting } = await startWithOneWaiting(`${postHead(1_000)}{`);
      leave(waiting);
      await expect.poll(() => counts.open()).toBe(0);
      expect(counts.waiting()).toBe(0);
      expect(begun).toBe(4);
      clock += 1;
      await expectLetIn(port, '127.0.0.1');
    },
  );

  it('should refuse a waiting connection that sends more than a request head, blaming the caller', async () => {
    const { counts, waiting: big } = await startWithOneWaiting(postHead(WAITING_BYTES * 2));
    big.socket.write('x'.repeat(WAITING_BYTES + 1));
    await expect.poll(() => reasonOf(big.received())).toBe('new_connections_per_address');
    expect(big.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(big.received()).toContain('"blame":"caller"');
    expect(big.received()).toContain('MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND');
    expect(counts.waiting()).toBe(0);
    expect(begun).toBe(4);
  });
});
