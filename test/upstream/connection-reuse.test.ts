/**
 * The upstream's connections after an answer the gateway refuses at its headers (an error status, a body
 * announced too large): a small answer that arrived whole leaves its connection in the pool, as before the
 * transport moved to undici's handler API, so a sick upstream answering 503 to every call is not also sent a
 * new connection per call and per retry; an answer still arriving is cut, and the call answers at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isUpstreamError } from '../../src/errors/upstream-error.ts';
import { createHttpTransport, type HttpTransport } from '../../src/upstream/client/http-transport.ts';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let origin = '';
let answer: Answer = (_request, response) => response.end('ok');
/** The client ports the server saw a request from: one per connection. */
const connections = new Set<number>();
/** Connections the server saw closed by the client. */
let closed = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    connections.add(request.socket.remotePort ?? 0);
    answer(request, response);
  });
  server.on('connection', (socket) => socket.on('close', () => (closed += 1)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  connections.clear();
  closed = 0;
});

function transport(): HttpTransport {
  return createHttpTransport({
    connectTimeoutMillis: 5_000,
    headersTimeoutMillis: 5_000,
    bodyTimeoutMillis: 5_000,
    callTimeoutMillis: 20_000,
    maxResponseBytes: 1_000,
    connectionsPerOrigin: 1,
  });
}

/** Sends `count` calls one after the other; answers each one's outcome (`ok` or the error's kind). */
async function sendMany(sender: HttpTransport, count: number): Promise<string[]> {
  const outcomes: string[] = [];
  for (let i = 0; i < count; i++) {
    outcomes.push(
      await sender.send({ operation: 'getObject', method: 'GET', origin, path: '/x' }).then(
        () => 'ok',
        (error: unknown) => (isUpstreamError(error) ? error.kind : String(error)),
      ),
    );
  }
  return outcomes;
}

describe('an answer refused', () => {
  it.each([
    {
      answer: 'small error pages (twenty 503s)',
      send: (response: ServerResponse) => {
        response.writeHead(503, { 'content-length': '5' });
        response.end('sorry');
      },
      calls: 20,
      kind: 'unavailable',
    },
    {
      answer: 'an answer announced too large that arrived whole',
      send: (response: ServerResponse) => {
        response.writeHead(200, { 'content-length': '2000' });
        response.end('x'.repeat(2_000));
      },
      calls: 5,
      kind: 'bad_response',
    },
    {
      answer: 'an unannounced answer over the size cap that arrived whole',
      send: (response: ServerResponse) => {
        response.writeHead(200);
        response.end('x'.repeat(2_000));
      },
      calls: 5,
      kind: 'bad_response',
    },
  ])('should keep one connection for $answer', async ({ send, calls, kind }) => {
    answer = (_request, response) => {
      send(response);
    };
    const sender = transport();
    try {
      expect(await sendMany(sender, calls)).toEqual(Array<string>(calls).fill(kind));
    } finally {
      await sender.close();
    }
    expect(connections.size).toBe(1);
  });

  it('should answer at once and cut the connection of an error page still arriving', async () => {
    answer = (_request, response) => {
      // The first part of an error page whose end never comes.
      response.writeHead(500);
      response.write('<html>'.padEnd(500, '.'));
    };
    const sender = transport();
    try {
      // Unavailable, not a timeout: the call did not wait for the rest of the page (5 s body timeout).
      expect(await sendMany(sender, 3)).toEqual(['unavailable', 'unavailable', 'unavailable']);
      // Each page was cut: its connection closed by the gateway, the next call on a new one.
      expect(connections.size).toBe(3);
      await expect.poll(() => closed).toBe(3);
      answer = (_request, response) => response.end('ok');
      expect(await sendMany(sender, 1)).toEqual(['ok']);
    } finally {
      await sender.close();
    }
  });
});
