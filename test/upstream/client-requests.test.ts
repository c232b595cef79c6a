import { MockAgent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamClient } from '../../src/upstream/client/client.ts';
import { CALLBACK_NAME_PATTERN } from '../../src/upstream/client/answers/jsonp.ts';
import type { PageStartMode, UpstreamClient } from '../../src/upstream/client/types.ts';
import { CREDENTIALS, clientAt, clientFor } from '../support/client-for.ts';
import { startMisbehavingServer } from '../support/servers/misbehaving-server.ts';
import type { MisbehavingServer, RecordedRequest } from '../support/servers/misbehaving-server.ts';
import { clientSettingsOf } from '../../src/upstream/client/client-settings.ts';
import { loadConfig } from '../../src/config/load-config.ts';

/** The client settings a user gets by default. */
const DEFAULT_CLIENT_SETTINGS = clientSettingsOf(loadConfig({}));

let server: MisbehavingServer;
const clients: UpstreamClient[] = [];

beforeAll(async () => {
  server = await startMisbehavingServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  server.reset();
});
afterAll(async () => {
  await server.close();
});

function client(base = `${server.url}/ok`, pageStartMode: PageStartMode = 'page0'): UpstreamClient {
  const created = clientAt(base, { pageStartMode });
  clients.push(created);
  return created;
}

function onlyRequest(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

const ORDER = 'com.example.Order';

/** `{ a: { a: … } }`, `levels` objects deep. */
function nest(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}
const CRITERIA = [{ fieldName: 'customer.id', operator: 'matches', value: 'c-1' }];

const OPERATIONS: [string, (c: UpstreamClient) => Promise<unknown>, string][] = [
  ['loginJson', (c) => c.loginJson('demo', 'pw'), '/v1/user/login'],
  ['loginForm', (c) => c.loginForm('demo', 'pw'), '/app/login.jsp'],
  [
    'metadata',
    (c) => c.getMetadata(CREDENTIALS, 'obj 1+2?', 'none'),
    '/studio/jsonp/metadata/get/obj%201%2B2%3F/',
  ],
  ['getObject', (c) => c.getObject(CREDENTIALS, ORDER, CRITERIA), '/studio/jsonp/getObject/'],
  ['getAll', (c) => c.getAll(CREDENTIALS, ORDER, CRITERIA, 20, 0), '/studio/jsonp/getAll'],
  ['save', (c) => c.save(CREDENTIALS, ORDER, { total: 1 }), '/studio/jsonp/save'],
  ['update', (c) => c.update(CREDENTIALS, ORDER, 'r 1;x', { total: 2 }), '/studio/jsonp/update/r%201%3Bx'],
];

describe('base addresses', () => {
  const BASES: [string, string][] = [
    ['a path prefix', '/ok/legacy/api'],
    ['a path prefix with a trailing slash', '/ok/legacy/api/'],
    ['a path prefix with doubled trailing slashes', '/ok/legacy/api//'],
    ['no prefix and a trailing slash', '/ok/'],
    ['no prefix', '/ok'],
  ];

  describe.each(BASES)('with %s', (_name, suffix) => {
    it.each(OPERATIONS)('should send %s to the right path', async (_operation, call, path) => {
      await call(client(`${server.url}${suffix}`));
      expect(onlyRequest().path).toBe(`${suffix.replace(/\/+$/, '')}${path}`);
    });
  });

  it('should send each operation to its own base address', async () => {
    const upstream = createUpstreamClient({
      ...DEFAULT_CLIENT_SETTINGS,
      apiUrl: `${server.url}/ok/api`,
      baseUrl: `${server.url}/ok/base`,
      studioUrl: `${server.url}/ok/studio`,
      serverUrl: `${server.url}/ok/server`,
    });
    clients.push(upstream);
    for (const [, call] of OPERATIONS) await call(upstream);
    expect(server.requests.map((request) => request.path.split('/')[2])).toEqual([
      'api',
      'base',
      'studio',
      'studio',
      'studio',
      'server',
      'server',
    ]);
  });

  it.each([
    ['a relative address', 'legacy/api'],
    ['another scheme', 'ftp://127.0.0.1/x'],
    ['a query string', 'http://127.0.0.1/x?apiToken=1'],
    ['credentials', 'http://user:pw@127.0.0.1/x'],
  ])('should refuse %s as base address, naming the setting', (_name, studioUrl) => {
    const ok = 'http://127.0.0.1/';
    expect(() =>
      createUpstreamClient({ ...DEFAULT_CLIENT_SETTINGS, apiUrl: ok, baseUrl: ok, serverUrl: ok, studioUrl }),
    ).toThrow(/studioUrl/);
  });
});

describe('request shapes', () => {
  it('should send getAll with every documented query parameter', async () => {
    await client().getAll(CREDENTIALS, ORDER, CRITERIA, 25, 0);
    const request = onlyRequest();
    expect(request.method).toBe('GET');
    expect(Object.fromEntries(request.query)).toEqual({
      username: 'demo',
      apiToken: CREDENTIALS.apiToken,
      applicationCode: 'demo',
      organizationCode: 'acme',
      objectName: ORDER,
      filterCommand: JSON.stringify({ criteria: CRITERIA }),
      pageSize: '25',
      pageStart: '0',
      callback: expect.stringMatching(CALLBACK_NAME_PATTERN) as unknown,
    });
  });

  it.each([
    ['page0', '2'],
    ['page1', '3'],
    ['offset', '50'],
  ] as const)('should convert page index 2 of size 25 to pageStart in %s mode', async (mode, pageStart) => {
    await client(`${server.url}/ok`, mode).getAll(CREDENTIALS, ORDER, [], 25, 2);
    expect(onlyRequest().query.get('pageStart')).toBe(pageStart);
  });

  it('should leave organizationCode out when the session has none', async () => {
    await client().getObject({ ...CREDENTIALS, organizationCode: undefined }, ORDER, CRITERIA);
    expect(onlyRequest().query.has('organizationCode')).toBe(false);
  });

  it('should send getObject with its filter and no paging', async () => {
    await client().getObject(CREDENTIALS, ORDER, CRITERIA);
    const { query } = onlyRequest();
    expect(JSON.parse(query.get('filterCommand')!)).toEqual({ criteria: CRITERIA });
    expect(query.has('pageSize')).toBe(false);
  });

  it('should send metadata with its category and credentials', async () => {
    await client().getMetadata(CREDENTIALS, 'o1', 'none');
    const { query } = onlyRequest();
    expect([query.get('category'), query.get('username'), query.get('apiToken')]).toEqual([
      'none',
      'demo',
      CREDENTIALS.apiToken,
    ]);
  });

  it.each(['.', '..', '', 'a/b', 'a\\b', 'a\nb', 'x'.repeat(257)])(
    'should refuse the id %j in a path as the caller mistake, without a request',
    async (id) => {
      const upstream = client();
      const refused = { kind: 'invalid_input', blame: 'caller', argument: expect.any(String) };
      await expect(upstream.update(CREDENTIALS, ORDER, id, { a: 1 })).rejects.toMatchObject(refused);
      await expect(upstream.getMetadata(CREDENTIALS, id, 'none')).rejects.toMatchObject(refused);
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each([
    ['a non-finite number', { n: Number.POSITIVE_INFINITY }, 'data.n'],
    ['an integer beyond 2^53', { big: 2 ** 64 }, 'data.big'],
    ['a value nested 33 levels deep', { deep: nest(33) }, 'data.deep'],
  ])('should refuse to write %s, naming where it is, without a request', async (_what, data, where) => {
    const upstream = client();
    for (const write of [
      () => upstream.save(CREDENTIALS, ORDER, data),
      () => upstream.update(CREDENTIALS, ORDER, 'r1', data),
    ]) {
      const error: unknown = await write().catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'invalid_input', blame: 'caller' });
      expect((error as { argument: string }).argument.startsWith(where)).toBe(true);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('should refuse an update whose query string passes UPSTREAM_MAX_URL_BYTES, saying how to send it instead', async () => {
    const upstream = client();
    const error: unknown = await upstream
      .update(CREDENTIALS, ORDER, 'r1', { text: 'y'.repeat(9_000) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_input', blame: 'caller' });
    expect((error as Error).message).toMatch(/UPSTREAM_MAX_URL_BYTES.*query string.*saveObject/);
    expect(server.requests).toHaveLength(0);
  });

  it('should POST save as JSON with the same callback in the query string and the body', async () => {
    await client().save(CREDENTIALS, ORDER, { _id: 'r1', total: 3, nested: { a: [1] } });
    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json; charset=UTF-8');
    const callback = request.query.get('callback');
    expect(callback).toMatch(CALLBACK_NAME_PATTERN);
    expect(JSON.parse(request.body)).toEqual({
      objectName: ORDER,
      data: { _id: 'r1', total: 3, nested: { a: [1] } },
      apiToken: CREDENTIALS.apiToken,
      applicationCode: 'demo',
      organizationCode: 'acme',
      callback,
    });
  });

  it('should send update as a GET with the fields in the query string', async () => {
    await client().update(CREDENTIALS, ORDER, 'r1', { total: 4, note: 'a&b=c' });
    const request = onlyRequest();
    expect(request.method).toBe('GET');
    expect(request.body).toBe('');
    expect(Object.fromEntries(request.query)).toEqual({
      objectName: ORDER,
      data: JSON.stringify({ total: 4, note: 'a&b=c' }),
      apiToken: CREDENTIALS.apiToken,
      username: 'demo',
      applicationCode: 'demo',
      organizationCode: 'acme',
      callback: expect.stringMatching(CALLBACK_NAME_PATTERN) as unknown,
    });
  });

  it('should POST the JSON login as JSON without credentials in the URL', async () => {
    await client().loginJson('demo', 'p&w=d');
    const request = onlyRequest();
    expect(request.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(request.body)).toEqual({ username: 'demo', password: 'p&w=d' });
    expect([...request.query.keys()]).toEqual([]);
  });

  it('should POST the form login form-encoded', async () => {
    await client().loginForm('5550100', 'p&w=d');
    const request = onlyRequest();
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      username: '5550100',
      password: 'p&w=d',
    });
  });

  it('should send a fresh callback name on every call', async () => {
    const upstream = client();
    for (let i = 0; i < 5; i++) await upstream.getAll(CREDENTIALS, ORDER, [], 20, 0);
    expect(new Set(server.requests.map((request) => request.query.get('callback'))).size).toBe(5);
  });

  it('should accept login answers wrapped in a callback anyway', async () => {
    const upstream = clientFor(server.url, 'always-wrapped');
    clients.push(upstream);
    await expect(upstream.loginJson('demo', 'pw')).resolves.toEqual({ token: 'upstream-token' });
    await expect(upstream.loginForm('demo', 'pw')).resolves.toMatchObject({
      userId: 'u1',
      token: 'upstream-token',
    });
  });
});

describe('injected dispatcher', () => {
  it('should send every call through it and leave it open on close', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const origin = 'http://upstream.test';
    agent
      .get(origin)
      .intercept({ path: (path) => path.startsWith('/legacy/studio/jsonp/getAll?'), method: 'GET' })
      .reply(200, ({ path }) => {
        const callback = new URL(path, origin).searchParams.get('callback') ?? '';
        return `${callback}({"status":"success","data":[{"_id":"m1"}],"totalCount":1});`;
      })
      .persist();
    const base = `${origin}/legacy`;
    const upstream = createUpstreamClient({
      ...DEFAULT_CLIENT_SETTINGS,
      apiUrl: base,
      baseUrl: base,
      studioUrl: base,
      serverUrl: base,
      dispatcher: agent,
    });
    await expect(upstream.getAll(CREDENTIALS, ORDER, [], 20, 0)).resolves.toEqual({
      records: [{ _id: 'm1' }],
      totalCount: 1,
    });
    await upstream.close();
    const after = await request(`${origin}/legacy/studio/jsonp/getAll?callback=x`, { dispatcher: agent });
    expect(await after.body.text()).toContain('"m1"');
    await agent.close();
  });
});
