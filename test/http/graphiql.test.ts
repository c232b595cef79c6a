import { beforeAll, describe, expect, it } from 'vitest';
import { renderGraphiqlPage } from '../../src/http/graphiql.ts';
import { EXAMPLE_DOCUMENT } from '../../src/app/graphql-route.ts';
import { useHarness } from '../support/gateway-harness.ts';

/** The `src`/`href` of every script and stylesheet of a page. */
const referencedAssets = (html: string) =>
  [...html.matchAll(/<(?:script|link)[^>]*\s(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');

describe('GraphiQL in development', () => {
  let base: string;
  const h = useHarness({ listen: false });
  beforeAll(() => {
    base = h.graphqlUrl.replace(/\/graphql$/, '');
  });

  it('should serve the page pre-filled with the example operations and headers', async () => {
    const response = await h.fetch(`${base}/graphiql`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const config = /<script type="application\/json" id="graphiql-config">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(config ?? 'null')).toEqual({
      endpoint: 'graphql',
      document: EXAMPLE_DOCUMENT,
      headers: JSON.stringify({ Authorization: 'Bearer <paste data.login.token here>' }, null, 2),
    });
  });

  it('should load every script and stylesheet from the gateway itself, never a CDN', async () => {
    const response = await h.fetch(`${base}/graphiql`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    const assets = referencedAssets(await response.text());
    expect(assets).toHaveLength(5);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const file = await h.fetch(new URL(asset, `${base}/graphiql`).href);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('content-type'), asset).toMatch(/^text\/(javascript|css)/);
      expect((await file.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
  });

  it('should send a browser at the root to the landing page, and a trailing slash to the real path', async () => {
    const follow = async (path: string, method = 'GET') => {
      const response = await h.fetch(`${base}${path}`, { method, redirect: 'manual' });
      const location = response.headers.get('location');
      return {
        status: response.status,
        to: location === null ? null : new URL(location, `${base}${path}`).pathname,
      };
    };
    expect(await follow('/')).toEqual({ status: 302, to: '/graphql' });
    expect(await follow('/graphiql/')).toEqual({ status: 308, to: '/graphiql' });
    expect(await follow('/graphql/', 'POST')).toEqual({ status: 308, to: '/graphql' });
    const page = await h.fetch(`${base}/graphiql/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="graphiql-config"');
  });

  it('should answer 404 for an asset it does not ship', async () => {
    for (const name of ['nope.js', '__proto__', 'constructor', '..%2Fpackage.json']) {
      expect((await h.fetch(`${base}/graphiql/assets/${name}`)).status, name).toBe(404);
    }
  });

  it('should link to GraphiQL from the landing page where Sandbox says it cannot load', async () => {
    const html = await (await h.fetch(h.graphqlUrl, { headers: { accept: 'text/html' } })).text();
    const fallback = /<div class="fallback">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(fallback).toContain('cannot be loaded');
    expect(fallback).toContain('<a href="graphiql">open GraphiQL</a>');
    expect(html).toContain('/graphiql');
  });
});

describe('GraphiQL with the landing page off', () => {
  const h = useHarness({ listen: false, env: { LANDING_PAGE: 'false' } });

  it('should not serve GraphiQL or its assets', async () => {
    const base = h.graphqlUrl.replace(/\/graphql$/, '');
    expect((await h.fetch(`${base}/graphiql`)).status).toBe(404);
    expect((await h.fetch(`${base}/`, { redirect: 'manual' })).status).toBe(404);
    expect((await h.fetch(`${base}/graphiql/assets/graphiql.js`)).status).toBe(404);
  });
});

describe('the GraphiQL page', () => {
  it('should keep a document that contains </script> inside its data block', () => {
    const html = renderGraphiqlPage({
      assetsUrl: 'graphiql/assets',
      document: 'query A { a } # </script><script>alert(1)</script>',
      headers: {},
    });
    expect(html.match(/<\/script>/g)).toHaveLength(5);
    expect(html).not.toContain('<script>alert(1)');
  });
});
