/**
 * A loopback HTTP server that misbehaves on purpose. The first path segment picks the behaviour, so a test
 * points one of the client's base addresses at `${url}/hang` (say) and every operation under it hangs.
 * Every request is recorded (method, path, query, headers, body) and counted per behaviour.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface RecordedRequest {
  behaviour: string;
  method: string;
  /** Path without the query string, behaviour segment included. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The running server. */
export interface MisbehavingServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests received for one behaviour. */
  hits(behaviour: string): number;
  reset(): void;
  close(): Promise<void>;
}

/** A success answer that satisfies every operation's schema (unknown keys are ignored by the client). */
const UNIVERSAL_SUCCESS = {
  status: 'success',
  data: [{ _id: 'r1', name: 'one' }],
  totalCount: 1,
  token: 'upstream-token',
  userId: 'u1',
  username: 'demo',
  message: 'ok',
  savedObjectId: 'r1',
  updatedFields: { name: 'one' },
};

function wrap(req: RecordedRequest, value: unknown): string {
  const callback = req.query.get('callback');
  const json = JSON.stringify(value);
  return callback === null ? json : `${callback}(${json});`;
}

type Behaviour = (req: RecordedRequest, res: ServerResponse, count: number) => void;

/** Writes `chunk` every `everyMillis` until the client goes away. */
function drip(res: ServerResponse, head: string, chunk: string, everyMillis: number): void {
  res.writeHead(200, { 'content-type': 'application/javascript' });
  res.write(head);
  const timer = setInterval(() => res.write(chunk), everyMillis);
  res.on('close', () => {
    clearInterval(timer);
  });
}

const BEHAVIOURS: Record<string, Behaviour> = {
  ok: (req, res) => res.end(wrap(req, UNIVERSAL_SUCCESS)),
  json: (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(UNIVERSAL_SUCCESS)),
  // Headers never come.
  hang: () => undefined,
  // A space every 1.5 s: each gap longer than a 200 ms bodyTimeout even at undici's timer resolution,
  // which is coarse (its parser timers tick about every 500 ms).
  'slow-drip': (req, res) => {
    drip(res, `${req.query.get('callback') ?? 'cb'}(`, ' ', 1_500);
  },
  // A space every 50 ms: never stalls, never ends; only the whole-call deadline stops it.
  'endless-drip': (req, res) => {
    drip(res, `${req.query.get('callback') ?? 'cb'}(`, ' ', 50);
  },
  reset: (req, res) => {
    res.writeHead(200, { 'content-length': '10000', 'content-type': 'application/javascript' });
    res.write(`${req.query.get('callback') ?? 'cb'}({"status":"success","data":[`, () => {
      setTimeout(() => res.socket?.destroy(), 20);
    });
  },
  'status-500': (_req, res) =>
    res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error'),
  'status-503-html': (_req, res) =>
    res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>'),
  html: (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!DOCTYPE html><html><head><title>Error</title></head><body>Exception in JSP</body></html>'),
  truncated: (req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/javascript' })
      .end(`${req.query.get('callback') ?? 'cb'}({"status":"suc`),
  // Streams forever in 16 KiB chunks: only an early abort at the size cap ends it with bad_response.
  oversized: (req, res) => {
    res.writeHead(200, { 'content-type': 'application/javascript' });
    res.write(`${req.query.get('callback') ?? 'cb'}({"status":"success","data":[`);
    const chunk = `{"_id":"${'x'.repeat(16 * 1024)}"},`;
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  },
  'oversized-length': (_req, res) => {
    res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
    res.write('cb(');
  },
  // Some deployments wrap even their plain JSON answers (the logins) in a callback of their own choosing.
  'always-wrapped': (_req, res) => res.end(`jQuery1102_1700000000(${JSON.stringify(UNIVERSAL_SUCCESS)});`),
  'wrong-callback': (_req, res) => res.end(`cb_someoneelse(${JSON.stringify(UNIVERSAL_SUCCESS)});`),
  'status-503': (_req, res) => res.writeHead(503).end(),
  // 503 twice, then success: a retried read recovers.
  'flaky-then-ok': (req, res, count) => {
    if (count <= 2) res.writeHead(503).end();
    else res.end(wrap(req, UNIVERSAL_SUCCESS));
  },
  // An error answer that echoes every credential it received; the second path segment picks the wording:
  // `auth` (a token complaint), `notfound`, anything else a plain failure.
  'echo-error': (req, res) => {
    const echoed = [req.query.get('apiToken'), req.body]
      .filter((part) => part !== null && part !== '')
      .join(' ');
    const flavour = req.path.split('/')[2];
    const message =
      flavour === 'auth'
        ? `invalid token ${echoed}`
        : flavour === 'notfound'
          ? `not found: ${echoed}`
          : `failed: ${echoed}`;
    res.end(wrap(req, { status: 'error', message, error_code: `E_${echoed}` }));
  },
};

/** Starts the server on a port the OS picks. */
export async function startMisbehavingServer(): Promise<MisbehavingServer> {
  const requests: RecordedRequest[] = [];
  const counts = new Map<string, number>();
  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://localhost');
      const behaviour = url.pathname.split('/')[1] ?? '';
      const recorded: RecordedRequest = {
        behaviour,
        method: incoming.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const count = (counts.get(behaviour) ?? 0) + 1;
      counts.set(behaviour, count);
      const handler = BEHAVIOURS[behaviour];
      if (handler === undefined) res.writeHead(404).end();
      else handler(recorded, res, count);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hits: (behaviour) => counts.get(behaviour) ?? 0,
    reset: () => {
      requests.length = 0;
      counts.clear();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        }),
      );
    },
  };
}

/** Whether a connection to `127.0.0.1:port` is refused at once. */
function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ECONNREFUSED');
    });
  });
}

/**
 * A port on which nothing listens, and nothing of the test suites will: a privileged one (below 1024) that
 * refuses a connection now. A port bound and then released could be handed, a moment later, to a server
 * another test file starts in parallel, which then answers (HTTP 404) where the test expected a refusal.
 */
export async function findClosedPort(): Promise<number> {
  for (let port = 1; port < 1024; port += 1) {
    if (await isRefused(port)) return port;
  }
  throw new Error('no closed port below 1024 on 127.0.0.1');
}
