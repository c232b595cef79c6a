import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { useHarness, type Harness } from '../support/gateway-harness.ts';

const PAGE = 'http://127.0.0.1:5173';
const OTHER = 'http://evil.example';

const preflight = (h: Harness, origin: string) =>
  h.fetch(h.graphqlUrl, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,authorization',
    },
  });

const post = (h: Harness, origin: string) =>
  h.fetch(h.graphqlUrl, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', authorization: 'Bearer nonsense' },
    body: JSON.stringify({ query: '{ me { username } }' }),
  });

/** Neither the preflight nor the POST from `origin` is answered with an allowed origin. */
async function expectNoCorsHeader(h: Harness, origin: string): Promise<void> {
  const pre = await preflight(h, origin);
  expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  const response = await post(h, origin);
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
}

describe('with CORS_ORIGINS set', () => {
  const h = useHarness({ listen: false, env: { CORS_ORIGINS: `${PAGE}, http://localhost:5173` } });

  it('should answer a preflight for POST with content-type and authorization from a listed origin', async () => {
    const response = await preflight(h, PAGE);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '')
      .toLowerCase()
      .split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'authorization']));
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('should let a listed origin read the answer of a POST', async () => {
    const response = await post(h, 'http://localhost:5173');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('vary')).toMatch(/origin/i);
    expect(await response.json()).toEqual({ data: { me: null } });
  });

  it('should not allow an origin that is not listed', async () => {
    await expectNoCorsHeader(h, OTHER);
  });
});

describe('without CORS_ORIGINS', () => {
  const h = useHarness({ listen: false });

  it('should send no CORS header to any origin', async () => {
    await expectNoCorsHeader(h, PAGE);
  });
});

describe('the CORS_ORIGINS setting', () => {
  it('should read a comma-separated list of origins', () => {
    const config = loadConfig({ CORS_ORIGINS: ' http://localhost:5173 ,https://app.example.com:8443,' });
    expect(config.corsOrigins).toEqual(['http://localhost:5173', 'https://app.example.com:8443']);
  });

  it('should default to no origin at all', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });

  it.each([
    '*',
    'http://localhost:5173/',
    'http://localhost:5173/app',
    'localhost:5173',
    'ftp://files.example',
  ])('should refuse %s with a line naming the setting', (value) => {
    expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(
      /^Invalid setting CORS_ORIGINS: .*not an origin/,
    );
  });
});
