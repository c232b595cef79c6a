import { serverAudits } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';

const h = useHarness({ listen: false });

describe('GraphQL over HTTP (graphql-http audit suite)', () => {
  // The audits run without a session: `me` and `__typename` need none.
  const audits = serverAudits({
    url: () => h.graphqlUrl,
    fetchFn: (url: string, init: RequestInit) => h.fetch(url, init),
  });
  it.each(audits.filter((a) => a.name.startsWith('MUST')).map((a) => [a.name, a] as const))(
    'should pass: %s',
    async (_name, audit) => {
      const result = await audit.fn();
      expect(result.status === 'ok' ? 'ok' : `${result.status}: ${result.reason}`).toBe('ok');
    },
  );
});

describe('HTTP surface', () => {
  it('should answer /healthz and /readyz while the upstream answers', async () => {
    const base = h.graphqlUrl.replace(/\/graphql$/, '');
    expect((await h.fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await h.fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', upstream: { status: 'ok' } });
  });

  it('should show Apollo Sandbox, pre-filled with the example operations, to a browser in development', async () => {
    const response = await h.fetch(h.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('embeddable-sandbox');
    expect(html).toContain('mutation Login');
    expect(html).toContain('query LoanTypes');
  });

  it('should refuse a GET query without a CSRF preflight header', async () => {
    const response = await h.fetch(`${h.graphqlUrl}?query=${encodeURIComponent('{ me { username } }')}`);
    expect(response.status).toBe(400);
  });

  it('should answer a GET query that carries the preflight header', async () => {
    const response = await h.fetch(`${h.graphqlUrl}?query=${encodeURIComponent('{ me { username } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { me: null } });
  });

  it('should refuse batched requests', async () => {
    const response = await h.fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ me { username } }' }, { query: '{ me { username } }' }]),
    });
    expect(response.status).toBe(400);
  });
});

describe('production settings', () => {
  const prod = useHarness({
    listen: false,
    env: { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) },
  });

  it('should turn introspection and the landing page off by default', async () => {
    const landing = await prod.fetch(prod.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(await landing.text()).not.toContain('embeddable-sandbox');
    const response = await prod.fetch(prod.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
    });
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('should not suggest field names in production', async () => {
    const response = await prod.fetch(prod.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ mee { username } }' }),
    });
    const text = await response.text();
    expect(text).toContain('GRAPHQL_VALIDATION_FAILED');
    expect(text).not.toContain('Did you mean');
  });
});
