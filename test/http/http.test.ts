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
    // The first probe may not have settled when /readyz answers (it never waits long for one).
    await expect
      .poll(async () => (await h.fetch(`${base}/readyz`)).json())
      .toMatchObject({ status: 'ready', upstream: { status: 'ok' } });
  });

  it('should show Apollo Sandbox, pre-filled with the example operations, to a browser in development', async () => {
    const response = await h.fetch(h.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('embeddable-sandbox');
    expect(html).toContain('mutation Login');
    expect(html).toContain('query LoanTypes');
  });

  // urql sends queries as GET with no custom header; the gateway's only credential is a Bearer token a page
  // must add itself, so a GET carries nothing a cross-site page could abuse (docs/design.md, "CSRF").
  it('should answer a GET query that carries no preflight header, as urql sends it', async () => {
    const response = await h.fetch(`${h.graphqlUrl}?query=${encodeURIComponent('{ me { username } }')}`, {
      headers: { accept: 'application/graphql-response+json, application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { me: null } });
  });

  it('should still answer a GET query that carries the preflight header', async () => {
    const response = await h.fetch(`${h.graphqlUrl}?query=${encodeURIComponent('{ me { username } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { me: null } });
  });

  it('should refuse a mutation over GET with 405, preflight header or not', async () => {
    const login = 'mutation { login(username: "demo", password: "demo-password") { token } }';
    for (const headers of [{}, { 'apollo-require-preflight': 'true' }]) {
      const response = await h.fetch(`${h.graphqlUrl}?query=${encodeURIComponent(login)}`, { headers });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(JSON.stringify(await response.json())).not.toContain('token"');
    }
  });

  it.each([
    ['text/plain', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'text/plain (a fetch without a content type)',
      'text/plain;charset=UTF-8',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a form', 'application/x-www-form-urlencoded', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['multipart', 'multipart/form-data; boundary=x', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])(
    'should run no operation POSTed as %s, which a cross-site form can send',
    async (_label, type, status, code) => {
      const query = 'mutation { login(username: "demo", password: "demo-password") { token } }';
      const response = await h.fetch(h.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify({ query }),
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ errors: [{ extensions: { code, blame: 'caller' } }] });
    },
  );

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
    expect(landing.status).toBe(406);
    expect(await landing.json()).toEqual({
      errors: [
        {
          message:
            'The Accept header names no type this endpoint answers: accept application/graphql-response+json or application/json (text/html is the landing page, which LANDING_PAGE turns on).',
          extensions: { code: 'NOT_ACCEPTABLE', blame: 'caller' },
        },
      ],
    });
    const response = await prod.fetch(prod.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
    });
    const body = (await response.json()) as {
      errors?: { message: string; extensions?: { code?: string; setting?: string } }[];
    };
    expect(response.status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'INTROSPECTION_DISABLED',
      setting: 'INTROSPECTION',
      blame: 'caller',
    });
    expect(body.errors?.[0]?.message).toContain('set INTROSPECTION=true');
    expect(body.errors?.[0]?.message).not.toContain('ApolloServer');
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
