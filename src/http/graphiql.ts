/**
 * GraphiQL at `/graphiql`, served entirely from the gateway's own `node_modules` (no CDN), so that an
 * explorer works on an air-gapped network or an offline laptop, where Apollo Sandbox cannot load.
 *
 * GraphiQL 4's prebuilt UMD bundle runs on React 18's UMD builds: no build step, nothing fetched at start.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Options of {@link registerGraphiql}. */
export interface GraphiqlOptions {
  /** Where the page is served; default `/graphiql`. Its assets live under `<path>/assets/`. */
  path?: string;
  /**
   * The GraphQL endpoint, relative to the page (so that a reverse proxy's path prefix is kept); default
   * `graphql`, which from `/graphiql` is `/graphql`.
   */
  endpoint?: string;
  /** The document the query editor opens with (the first visit; GraphiQL remembers edits after that). */
  document: string;
  /** Headers the headers editor opens with. */
  headers: Record<string, string>;
}

interface Asset {
  /** Package that ships the file and the file's path inside it. */
  from?: { packageName: string; file: string };
  /** Or the file's content itself. */
  content?: string;
  contentType: string;
}

/** Mounts GraphiQL into the page with the settings in `#graphiql-config` (a JSON data block, never run). */
const SETUP_SCRIPT = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('graphiql-config').textContent);
  var fetcher = GraphiQL.createFetcher({ url: new URL(config.endpoint, window.location.href).href });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: config.document,
      defaultHeaders: config.headers,
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
    }),
  );
})();
`;

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** An asset served from `file` of the installed package `packageName`. */
const fromPackage = (packageName: string, file: string, contentType = JAVASCRIPT): Asset => ({
  from: { packageName, file },
  contentType,
});

const ASSETS: Record<string, Asset> = {
  'react.js': fromPackage('react', 'umd/react.production.min.js'),
  'react-dom.js': fromPackage('react-dom', 'umd/react-dom.production.min.js'),
  'graphiql.js': fromPackage('graphiql', 'graphiql.min.js'),
  'graphiql.css': fromPackage('graphiql', 'graphiql.min.css', 'text/css; charset=utf-8'),
  'setup.js': { content: SETUP_SCRIPT, contentType: JAVASCRIPT },
};

/**
 * The files of installed packages the page serves: all that the image keeps of those packages
 * (`support/runtime-modules.ts`).
 */
export const GRAPHIQL_PACKAGE_FILES: readonly { packageName: string; file: string }[] = Object.values(
  ASSETS,
).flatMap((asset) => (asset.from === undefined ? [] : [asset.from]));

/**
 * Only our own files run; GraphiQL sets inline styles and ships its fonts and icons as `data:` URLs; the
 * page talks to nothing but its own origin.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** JSON that is safe inside a `<script>` element: no `</script>` or `<!--` can end or change it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The page: GraphiQL's stylesheet and scripts, then the settings and the setup script. */
export function renderGraphiqlPage(options: GraphiqlOptions & { assetsUrl: string }): string {
  const config = {
    endpoint: options.endpoint ?? 'graphql',
    document: options.document,
    headers: JSON.stringify(options.headers, null, 2),
  };
  const asset = (name: string) => `${options.assetsUrl}/${name}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>GraphiQL · GraphQL gateway</title>
    <link rel="stylesheet" href="${asset('graphiql.css')}" />
    <style>body { margin: 0; } #graphiql { height: 100vh; }</style>
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
    <script type="application/json" id="graphiql-config">${scriptSafeJson(config)}</script>
    <script src="${asset('react.js')}"></script>
    <script src="${asset('react-dom.js')}"></script>
    <script src="${asset('graphiql.js')}"></script>
    <script src="${asset('setup.js')}"></script>
  </body>
</html>
`;
}

/**
 * Serves GraphiQL at `options.path` and its assets below it. Assets are read from disk on first use and
 * kept in memory (about 1.5 MB), so a gateway that nobody explores never reads them.
 */
export function registerGraphiql(app: FastifyInstance, options: GraphiqlOptions): void {
  const path = options.path ?? '/graphiql';
  const segment = path.slice(path.lastIndexOf('/') + 1);
  // Relative to the page, like the endpoint, so that a path prefix added by a proxy is kept.
  const html = renderGraphiqlPage({ ...options, assetsUrl: `${segment}/assets` });
  const require = createRequire(import.meta.url);
  const loaded = new Map<string, Promise<Buffer | string>>();
  const load = (name: string, asset: Asset): Promise<Buffer | string> => {
    let body = loaded.get(name);
    if (body === undefined) {
      const { from, content = '' } = asset;
      body = from
        ? readFile(join(dirname(require.resolve(`${from.packageName}/package.json`)), from.file))
        : Promise.resolve(content);
      // A failed read is retried on the next request rather than remembered.
      void body.catch(() => loaded.delete(name));
      loaded.set(name, body);
    }
    return body;
  };

  app.get(path, (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .send(html),
  );
  app.get<{ Params: { name: string } }>(`${path}/assets/:name`, async (request, reply) => {
    const { name } = request.params;
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (asset === undefined) {
      // The not-found handler answers in the gateway's error shape.
      reply.callNotFound();
      return reply;
    }
    const body = await load(name, asset);
    return reply
      .type(asset.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=3600')
      .send(body);
  });
}
