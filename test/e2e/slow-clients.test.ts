/**
 * Slow and silent clients against the real gateway on a loopback port (raw `node:net` sockets): each is cut
 * after its deadline with a GraphQL-shaped 408 and leaves no socket behind, while other callers are served
 * before the slow ones are reaped, and a request that arrived in time is never cut however long its answer
 * takes. The server closing the connection at all is the proof of the cut (`slowClient` fails when the
 * connection stays open); no stopwatch bounds it from above, so a loaded machine reaping late fails nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { slowClient } from '../support/raw-http-client.ts';

// Seconds: room for a loaded machine to answer the callers who are not slow before the slow ones are cut.
const REQUEST_TIMEOUT_MS = 2_000;
const HEADERS_TIMEOUT_MS = 1_000;
const UPSTREAM_LATENCY_MS = 2_500;

let base: string;
const h = useHarness({
  emulator: { latencyMillis: UPSTREAM_LATENCY_MS },
  env: {
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    LOGIN_FAILURE_MIN_MS: '0',
  },
});
beforeAll(() => {
  base = h.graphqlUrl.replace(/\/graphql$/, '');
});

/** The sockets the gateway still holds. */
function openConnections(): Promise<number> {
  return new Promise((resolve, reject) => {
    h.gateway.app.server.getConnections((error, count) => {
      if (error) reject(error);
      else resolve(count);
    });
  });
}

const POST_HEAD = (contentLength: number) =>
  `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${contentLength}\r\n\r\n`;

describe('slow clients', () => {
  it('should answer 408 REQUEST_TIMEOUT and close the connection of a client that trickles its body', async () => {
    const exchange = await slowClient(base, {
      opening: `${POST_HEAD(60_000)}{"query":"{ me { username } } #`,
      trickle: { chunk: 'x', everyMillis: 50 },
    });
    expect(exchange.status).toBe(408);
    expect(exchange.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(exchange.body)).toEqual({
      errors: [
        {
          message: 'The request took too long to arrive.',
          extensions: { code: 'REQUEST_TIMEOUT', blame: 'caller' },
        },
      ],
    });
    expect(exchange.closedAfterMillis).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  });

  it('should answer 408 and close the connection of a client that trickles its headers', async () => {
    const exchange = await slowClient(base, {
      opening: 'GET /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\n',
      trickle: { chunk: 'x-slow: y\r\n', everyMillis: 50 },
    });
    expect(exchange.status).toBe(408);
    expect(exchange.closedAfterMillis).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
  });

  it('should close a connection that never sends a byte', async () => {
    const exchange = await slowClient(base, {});
    expect(exchange.closedAfterMillis).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
  });

  it('should hold no socket of a reaped client', async () => {
    await Promise.all(
      Array.from({ length: 20 }, () =>
        slowClient(base, { opening: POST_HEAD(60_000), trickle: { chunk: 'x', everyMillis: 50 } }),
      ),
    );
    expect(await openConnections()).toBe(0);
  });

  it('should answer other callers while slow clients wait to be reaped', async () => {
    let reaped = 0;
    const slow = Array.from({ length: 50 }, () =>
      slowClient(base, { opening: POST_HEAD(60_000), trickle: { chunk: 'x', everyMillis: 50 } }).then(
        (exchange) => {
          reaped++;
          return exchange;
        },
      ),
    );
    const response = await fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { username } }' }),
    });
    expect(await response.json()).toEqual({ data: { me: null } });
    // Served while every slow client still held its connection: they did not make it wait its turn.
    expect(reaped).toBe(0);
    expect((await Promise.all(slow)).map((exchange) => exchange.status)).toEqual(Array(50).fill(408));
  });

  it('should not cut a request that arrived in time, however long its answer takes', async () => {
    const started = performance.now();
    const token = await h.login();
    expect(token).toMatch(/\S/);
    expect(performance.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS);
  });

  it('should mark a 408 no-store and nosniff too', async () => {
    const exchange = await slowClient(base, {
      opening: POST_HEAD(100),
      trickle: { chunk: ' ', everyMillis: 50 },
    });
    expect(exchange.status).toBe(408);
    expect(exchange.headers['cache-control']).toBe('no-store');
    expect(exchange.headers['x-content-type-options']).toBe('nosniff');
  });
});
