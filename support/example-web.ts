/**
 * Builds the example front-end (examples/web) with Vite and serves the bundle, plus the `config.json` that
 * tells the page where the gateway is. Used by `npm run example` and by the browser test.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example's folder (Vite's root). */
export const EXAMPLE_WEB_ROOT = fileURLToPath(new URL('../examples/web/', import.meta.url));

/** The page's trusted documents (GraphQL Code Generator's manifest): the gateway's `TRUSTED_DOCUMENTS`. */
export const EXAMPLE_TRUSTED_DOCUMENTS = join(
  EXAMPLE_WEB_ROOT,
  'src',
  'generated',
  'persisted-documents.json',
);

/** Builds the page into `outDir` (default `examples/web/dist`). Takes a few seconds. */
export async function buildExampleWeb(outDir = join(EXAMPLE_WEB_ROOT, 'dist')): Promise<string> {
  // Loaded on demand: vite is a development dependency, and only this needs it.
  const { build } = await import('vite');
  // Vite sets NODE_ENV=production for the rest of the process when it is unset, and builds for `test` when
  // a test runner set it: pin it for the build, then put it back so the gateway's settings are unchanged.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: EXAMPLE_WEB_ROOT,
      configFile: join(EXAMPLE_WEB_ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

/** Options of {@link serveExampleWeb}. */
export interface ExampleWebServerOptions {
  /** The built bundle. */
  dir: string;
  /** The gateway's GraphQL endpoint, read when the page asks (the gateway may start after this server). */
  graphqlUrl: () => string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

/** A running page server. */
export interface ExampleWebServer {
  /** `http://127.0.0.1:PORT` (the page's origin, for `CORS_ORIGINS`). */
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Serves the bundle's files (nothing outside `dir`) and `/config.json`. */
export async function serveExampleWeb(options: ExampleWebServerOptions): Promise<ExampleWebServer> {
  const root = resolve(options.dir);
  const server = createServer((request, response) => {
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) => {
      response.writeHead(status, {
        'content-type': type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        ...headers,
      });
      response.end(body);
    };
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://page').pathname);
    } catch {
      send(400, 'text/plain', 'Bad request');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(405, 'text/plain', 'Method not allowed', { allow: 'GET, HEAD' });
      return;
    }
    if (path === '/config.json') {
      send(200, TYPES['.json'] ?? '', JSON.stringify({ graphqlUrl: options.graphqlUrl() }));
      return;
    }
    const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(root + sep)) {
      send(404, 'text/plain', 'Not found');
      return;
    }
    readFile(file).then(
      (body) => {
        // The page may talk to its own origin and to the gateway only.
        const gateway = new URL(options.graphqlUrl()).origin;
        send(200, TYPES[extname(file)] ?? 'application/octet-stream', body, {
          'content-security-policy': `default-src 'self'; connect-src 'self' ${gateway}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
        });
      },
      () => {
        send(404, 'text/plain', 'Not found');
      },
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      done();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    origin: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => {
          done();
        });
        server.closeAllConnections();
      }),
  };
}
