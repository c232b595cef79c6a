/**
 * A hand-driven HTTP/1.1 client on a raw `node:net` socket, for what `fetch` cannot do: send headers or a
 * body byte by byte, slowly, and see exactly what the server answers and when it closes the connection.
 */
import { connect, type Socket } from 'node:net';

/** What a {@link slowClient} saw. */
export interface RawExchange {
  /** Everything the server sent. */
  text: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMillis: number;
  /** The status of the first response, if any. */
  status: number | undefined;
  /** Its headers, names lower-cased. */
  headers: Record<string, string>;
  /** Its body. */
  body: string;
}

/** How a {@link slowClient} behaves. */
export interface SlowClientOptions {
  /** Sent at once on connecting (e.g. a request line and some headers). */
  opening?: string;
  /** Then sent every `everyMillis`, until the server closes the connection. */
  trickle?: { chunk: string; everyMillis: number };
  /** Gives up (and fails) after this long; default 60 s (generous: a loaded machine reaps late). */
  giveUpAfterMillis?: number;
}

/**
 * Connects to `baseUrl` (`http://127.0.0.1:PORT`), sends `opening`, trickles, and resolves once the server
 * closes the connection. Rejects if it is still open after `giveUpAfterMillis`.
 */
export function slowClient(baseUrl: string, options: SlowClientOptions): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  const socket = connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  return new Promise<RawExchange>((resolve, reject) => {
    let trickle: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, options.giveUpAfterMillis ?? 60_000);
    socket.on('connect', () => {
      if (options.opening !== undefined) socket.write(options.opening);
      const { trickle: drip } = options;
      if (drip !== undefined) {
        trickle = setInterval(() => {
          if (socket.writable) socket.write(drip.chunk);
        }, drip.everyMillis);
      }
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may reset the connection after answering; what it sent is still what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(trickle);
      clearTimeout(giveUp);
      resolve(parseExchange(Buffer.concat(chunks).toString('utf8'), performance.now() - started));
    });
  });
}

function parseExchange(text: string, closedAfterMillis: number): RawExchange {
  const headEnd = text.indexOf('\r\n\r\n');
  const head = headEnd < 0 ? text : text.slice(0, headEnd);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    text,
    closedAfterMillis,
    status: status === undefined ? undefined : Number(status),
    headers,
    body: headEnd < 0 ? '' : text.slice(headEnd + 4),
  };
}

/** A raw connection held open by a test: what it was answered so far, and when it connected. */
export interface RawClient {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Settles once connected (and `text` written), or once the connection closed without connecting. */
  connected: Promise<void>;
}

/**
 * Opens a connection to `127.0.0.1:port` from `localAddress` (any 127.0.0.0/8 address stands for another
 * client; left out, the system's choice, which spares thousands of sockets an explicit bind each) that
 * writes `text` once connected and keeps the connection until the test destroys it.
 */
export function rawClient(port: number, localAddress?: string, text = ''): RawClient {
  const socket = connect({
    host: '127.0.0.1',
    port,
    ...(localAddress === undefined ? {} : { localAddress }),
  });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // A refused or reset connection is an answer the test reads, never an unhandled error.
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve) => {
    socket.once('connect', () => {
      if (text !== '') socket.write(text);
      resolve();
    });
    socket.once('close', () => {
      resolve();
    });
  });
  return { socket, received: () => received, connected };
}

/** One response read off a raw connection by {@link pipelined}. */
export interface PipelinedResponse {
  status: number;
  body: string;
}

/** The raw text of a `POST` of `body` (JSON) to `path`, keeping the connection open for the next one. */
export function rawJsonPost(path: string, body: unknown, headers: Record<string, string> = {}): string {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const lines = [
    `POST ${path} HTTP/1.1`,
    'host: 127.0.0.1',
    'content-type: application/json',
    `content-length: ${payload.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${payload.toString('utf8')}`;
}

/**
 * Writes every request of `requests` at once on one connection to `127.0.0.1:port` (HTTP/1.1 pipelining,
 * from `localAddress` if given) and resolves with the responses in order, once all arrived or the server
 * closed the connection (fewer then). Responses must carry a `content-length` (the gateway's do).
 */
export function pipelined(
  port: number,
  requests: string[],
  localAddress?: string,
): Promise<PipelinedResponse[]> {
  const socket = connect({
    host: '127.0.0.1',
    port,
    ...(localAddress === undefined ? {} : { localAddress }),
  });
  let buffer = Buffer.alloc(0);
  const responses: PipelinedResponse[] = [];
  return new Promise((resolve) => {
    const done = () => {
      socket.destroy();
      resolve(responses);
    };
    socket.on('connect', () => socket.write(requests.join('')));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headEnd = buffer.indexOf('\r\n\r\n');
        if (headEnd < 0) break;
        const head = buffer.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < headEnd + 4 + length) break;
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        responses.push({ status, body: buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') });
        buffer = buffer.subarray(headEnd + 4 + length);
      }
      if (responses.length >= requests.length) done();
    });
    socket.on('error', () => undefined);
    socket.on('close', done);
  });
}
