/**
 * Requests in flight per connection (`pipelined-requests.ts`) on a bare Fastify server, driven by raw
 * pipelining sockets: one request runs per connection and the next only after its answer, a few wait;
 * one more, and the connection is answered 503 `GATEWAY_BUSY` (`pipelined_requests`) after its running
 * request and closed, none of the waiting run; another connection is served meanwhile; and a client's
 * keep-alive connection is never closed for others whose connections all hold pipelined requests (the
 * issue's 64/16 case, scaled down). Counts, never milliseconds.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { limitConnections } from '../../src/http/capacity/connection-limits.ts';
import { limitPipelining } from '../../src/http/capacity/pipelined-requests.ts';
import { listenWithHeldRoute } from '../support/listen-with-held-route.ts';
import { pipelined, rawClient, type RawClient } from '../support/raw-http-client.ts';

let app: FastifyInstance | undefined;
let held = Promise.withResolvers<undefined>();
const clients: RawClient[] = [];

afterEach(async () => {
  held.resolve(undefined);
  for (const client of clients.splice(0)) client.socket.destroy();
  held = Promise.withResolvers<undefined>();
  await app?.close();
  app = undefined;
});

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`;

/** A server with both bounds; counts the requests Fastify is running at once and the most it ran. */
async function startServer(
  maxPipelinedRequests: number,
  caps = { maxConnections: 64, maxConnectionsPerAddress: 8 },
) {
  const running = { now: 0, most: 0, seen: 0, parsed: 0 };
  app = Fastify();
  limitPipelining(app.server, { maxPipelinedRequests }, app.log);
  // Every request Node parsed, run or not.
  app.server.prependListener('request', () => running.parsed++);
  limitConnections(app.server, caps, app.log);
  app.addHook('onRequest', (_request, reply, done) => {
    running.seen++;
    running.now++;
    running.most = Math.max(running.most, running.now);
    reply.raw.once('close', () => running.now--);
    done();
  });
  const port = await listenWithHeldRoute(app, () => held.promise);
  return { port, running };
}

it('should run a connection’s pipelined requests one at a time and answer them all in order', async () => {
  const { port, running } = await startServer(8);
  const answers = await pipelined(
    port,
    Array.from({ length: 9 }, () => GET('/quick')),
    '127.0.0.2',
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array<number>(9).fill(200));
  expect(running.seen).toBe(9);
  expect(running.most).toBe(1);
});

it('should refuse a connection with more than MAX_PIPELINED_REQUESTS waiting with 503 pipelined_requests, run none of them, and serve another connection meanwhile', async () => {
  const { port, running } = await startServer(4);
  const flood = pipelined(
    port,
    [GET('/hold'), ...Array.from({ length: 20_000 }, () => GET('/quick'))],
    '127.0.0.2',
  );
  // Another client, on its own connection, while the flood's first request runs and the rest wait.
  const other = await pipelined(port, [GET('/quick'), GET('/quick')], '127.0.0.3');
  expect(other.map((answer) => answer.status)).toEqual([200, 200]);
  held.resolve(undefined);
  const answers = await flood;
  // The running one is answered, then the refusal, then the connection closes: nothing after it ran.
  expect(answers.map((answer) => answer.status)).toEqual([200, 503]);
  expect(JSON.parse(answers[1]?.body ?? '{}')).toMatchObject({
    errors: [
      {
        extensions: {
          code: 'GATEWAY_BUSY',
          reason: 'pipelined_requests',
          limit: 'MAX_PIPELINED_REQUESTS',
          blame: 'caller',
        },
      },
    ],
  });
  // Fastify saw the flood's first request and the other client's two, never more than two at once.
  expect(running.seen).toBe(3);
  // The refused connection was no longer read: Node parsed a fraction of the 540 KB flood (one read's worth).
  expect(running.parsed).toBeLessThan(10_000);
  expect(running.most).toBe(2);
});

it('should keep serving a keep-alive client while other addresses fill the total with pipelined requests', async () => {
  const { port } = await startServer(8, { maxConnections: 8, maxConnectionsPerAddress: 2 });
  const open = (address: string, text: string) => {
    const client = rawClient(port, address, text);
    clients.push(client);
    return client;
  };
  const answered = (client: RawClient) => client.received().split('HTTP/1.1 200 ').length - 1;
  const victim = open('127.0.0.9', GET('/quick'));
  await expect.poll(() => answered(victim)).toBe(1);
  // Seven connections from four addresses, each keeping three requests pipelined: every one busy.
  const busy = [
    '127.0.0.2',
    '127.0.0.2',
    '127.0.0.3',
    '127.0.0.3',
    '127.0.0.4',
    '127.0.0.4',
    '127.0.0.5',
  ].map((address) => open(address, GET('/hold').repeat(3)));
  await Promise.all(busy.map((client) => client.connected));
  // Newcomers from a fresh address and from one holding a single connection: neither may close the
  // victim's (it holds as few as they would).
  const newcomers = [open('127.0.0.6', GET('/quick')), open('127.0.0.5', GET('/quick'))];
  await expect
    .poll(() => newcomers.map((client) => /"reason":"(\w+)"/.exec(client.received())?.[1]))
    .toEqual(['connections', 'connections']);
  for (let round = 2; round <= 6; round++) {
    victim.socket.write(GET('/quick'));
    await expect.poll(() => answered(victim)).toBe(round);
  }
  expect(busy.filter((client) => client.socket.destroyed || client.socket.readableEnded)).toEqual([]);
});
