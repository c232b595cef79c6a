import { describe, expect, it } from 'vitest';
import { DEMO, DEMO_SEED_COUNTS, startEmulator } from '../../emulator/index.ts';
import { filter, getAll, getJsonp, ids, login } from '../support/emulator-wire.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const { emulator, demo } = useEmulator();
const { emulator: guarded } = useEmulator({ wrapper: 'guard' });
const { emulator: naming, demo: namingDemo } = useEmulator({
  errorMessages: {
    'unknown object name': "Object type '{objectName}' is not registered for this application",
  },
});

const LOAN = 'com.example.LoanType';
const CUSTOMER = 'com.example.Customer';
const ORDER = 'com.example.Order';

describe('JSONP wrapping', () => {
  it('should wrap the answer in the named callback in the plain style', async () => {
    const answer = await getAll(emulator, demo, LOAN, { pageSize: '1', callback: 'jsonp_1$a' });
    expect(answer.contentType).toBe('application/javascript; charset=utf-8');
    expect(answer.body).toMatchInlineSnapshot(
      `"jsonp_1$a({"status":"success","data":[{"_id":"65a475800101e0c0de000000","loanType":"Home Fixed","description":"Fixed rate home loan (acme)","rate":2.5}],"totalCount":30});"`,
    );
  });

  it('should wrap the answer in the guard style', async () => {
    const credentials = await login(guarded);
    const answer = await getAll(guarded, credentials, LOAN, { pageSize: '1', callback: '_cb' });
    expect(answer.body).toMatch(/^\/\*\*\/ typeof _cb === 'function' && _cb\(\{"status":"success".*\}\);$/);
  });

  it('should wrap service errors in the callback too', async () => {
    const answer = await getAll(emulator, { ...demo, apiToken: 'forged' }, LOAN, { callback: 'onData' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('onData({"status":"error","message":"invalid token: log in again"});');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['starting with a digit', '1cb'],
    ['script', 'alert(1)//'],
    ['65 characters long', `a${'b'.repeat(64)}`],
    ['dotted', 'window.cb'],
  ])('should answer HTTP 400 plain JSON, not reflecting it, for a callback %s', async (_, callback) => {
    for (const path of [
      '/studio/jsonp/getAll',
      '/studio/jsonp/getObject/',
      '/studio/jsonp/metadata/get/x/',
    ]) {
      const answer = await getJsonp(emulator, path, { ...demo, objectName: LOAN, callback });
      expect(answer.status).toBe(400);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(answer.json.status).toBe('error');
      if (callback) expect(answer.body).not.toContain(callback);
    }
  });
});

describe('getAll', () => {
  it('should answer status, data with _id and the type fields, and totalCount', async () => {
    const answer = await getAll(emulator, demo, CUSTOMER, { pageSize: '2' });
    expect(answer.json.totalCount).toBe(DEMO_SEED_COUNTS[CUSTOMER]);
    expect(answer.json.data).toEqual([
      expect.objectContaining({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: expect.any(String) }),
      expect.objectContaining({ address: { city: expect.any(String), country: expect.any(String) } }),
    ]);
  });

  it('should serve the same ids on every start', async () => {
    const other = await startEmulator({ port: 0 });
    try {
      const answer = await getAll(other, await login(other), ORDER, { pageSize: '1000' });
      expect(ids(answer)).toEqual(ids(await getAll(emulator, demo, ORDER, { pageSize: '1000' })));
    } finally {
      await other.close();
    }
  });

  it('should have orders that reference real customers', async () => {
    const orders = (await getAll(emulator, demo, ORDER, { pageSize: '1000' })).json.data as {
      customer: { id: string; name: string };
    }[];
    const customers = (await getAll(emulator, demo, CUSTOMER, { pageSize: '1000' })).json.data as {
      _id: string;
      name: string;
    }[];
    const names = new Map(customers.map((c) => [c._id, c.name]));
    expect(orders).toHaveLength(DEMO_SEED_COUNTS[ORDER]);
    for (const order of orders) expect(names.get(order.customer.id)).toBe(order.customer.name);
  });

  it('should default to 20 records and cap pageSize at 1000', async () => {
    expect(ids(await getAll(emulator, demo, ORDER))).toHaveLength(20);
    const big = await getAll(emulator, demo, ORDER, { pageSize: '5000' });
    expect(ids(big)).toHaveLength(DEMO_SEED_COUNTS[ORDER]);
  });

  it.each([
    ['an unknown object name', { objectName: 'com.example.Nope' }, /unknown object name/],
    ['no object name', { objectName: undefined }, /missing objectName/],
    ['filterCommand that is not JSON', { filterCommand: '{criteria:' }, /not valid JSON/],
    ['filterCommand without criteria', { filterCommand: '{}' }, /criteria/],
    [
      'an unsupported operator',
      { filterCommand: '{"criteria":[{"fieldName":"a","operator":"eq","value":"b"}]}' },
      /operator/,
    ],
    ['an invalid pageSize', { pageSize: 'ten' }, /pageSize/],
    ['a zero pageSize', { pageSize: '0' }, /pageSize/],
    ['a negative pageStart', { pageStart: '-1' }, /pageStart/],
  ])('should answer status error for %s', async (_, params, message) => {
    const answer = await getAll(emulator, demo, LOAN, params);
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('error');
    expect(answer.json.message).toMatch(message);
  });

  it.each([
    ['no apiToken', { apiToken: undefined }, /token/],
    ['a forged apiToken', { apiToken: 'x'.repeat(32) }, /token/],
    ['no username', { username: undefined }, /credentials/],
    ['another user name', { username: 'ops' }, /credentials/],
    ['no applicationCode', { applicationCode: undefined }, /credentials/],
    ['another applicationCode', { applicationCode: 'crm' }, /credentials/],
  ])('should answer status error with a token or credentials message for %s', async (_, params, message) => {
    const answer = await getAll(emulator, demo, LOAN, params);
    expect(answer.json.status).toBe('error');
    expect(answer.json.message).toMatch(message);
  });
});

describe('getObject', () => {
  it('should answer the read shape with the one object whose _id matches', async () => {
    const [id] = ids(await getAll(emulator, demo, LOAN, { pageSize: '5', pageStart: '1' }));
    const answer = await getJsonp(emulator, '/studio/jsonp/getObject/', {
      ...demo,
      objectName: LOAN,
      filterCommand: filter(['_id', id!]),
    });
    expect(answer.json).toEqual({
      status: 'success',
      data: [expect.objectContaining({ _id: id })],
      totalCount: 1,
    });
  });

  it('should answer an empty data array when nothing matches', async () => {
    const answer = await getJsonp(emulator, '/studio/jsonp/getObject', {
      ...demo,
      objectName: LOAN,
      filterCommand: filter(['_id', '000000000000000000000000']),
    });
    expect(answer.json).toEqual({ status: 'success', data: [], totalCount: 0 });
  });

  it('should answer the first match (insertion order) when several match', async () => {
    const answer = await getJsonp(emulator, '/studio/jsonp/getObject/', {
      ...demo,
      objectName: ORDER,
      filterCommand: filter(['status', 'PAID']),
    });
    const all = await getAll(emulator, demo, ORDER, { filterCommand: filter(['status', 'PAID']) });
    expect(ids(answer)).toEqual(ids(all).slice(0, 1));
  });

  it('should answer status error for an unknown object name', async () => {
    const answer = await getJsonp(emulator, '/studio/jsonp/getObject/', { ...demo, objectName: 'x.Y' });
    expect(answer.json).toEqual({ status: 'error', message: 'unknown object name' });
  });
});

describe('metadata', () => {
  it('should describe an object of the caller tenant', async () => {
    const [id] = ids(await getAll(emulator, demo, ORDER, { pageSize: '1' }));
    const answer = await getJsonp(emulator, `/studio/jsonp/metadata/get/${id!}/`, {
      ...demo,
      category: 'none',
    });
    expect(answer.json).toEqual({
      status: 'success',
      data: {
        objectId: id,
        objectName: ORDER,
        category: 'none',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        createdBy: expect.any(String),
        version: 1,
      },
    });
  });

  it('should answer object not found for an unknown id, and a token message for a bad token', async () => {
    const unknown = await getJsonp(emulator, '/studio/jsonp/metadata/get/65a475800101e0c0deffffff', demo);
    expect(unknown.json).toEqual({ status: 'error', message: 'object not found' });
    const forged = await getJsonp(emulator, '/studio/jsonp/metadata/get/x/', { ...demo, apiToken: 'forged' });
    expect(forged.json.message).toMatch(/token/);
  });
});

describe('HTTP surface', () => {
  it.each([
    '/',
    '/studio/jsonp/getAllX',
    '/studio/jsonp/update/',
    '/v2/user/login',
    '/studio/jsonp/metadata/get/a/b',
  ])('should answer 404 for the unknown path %s', async (path) => {
    const response = await fetch(`${emulator.url}${path}`);
    expect(response.status).toBe(404);
    await response.text();
  });

  it('should answer 405 for a known path with another method', async () => {
    const response = await fetch(`${emulator.url}/v1/user/login`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    await response.text();
  });

  it('should count calls per operation and reset the counters', async () => {
    emulator.resetStats();
    await getAll(emulator, demo, LOAN);
    await getJsonp(emulator, '/studio/jsonp/getObject', { ...demo, objectName: LOAN });
    await getJsonp(emulator, '/studio/jsonp/getAll', { callback: '!' });
    expect(emulator.stats()).toEqual({
      loginJson: 0,
      loginForm: 0,
      metadata: 0,
      getObject: 1,
      getAll: 2,
      save: 0,
      update: 0,
    });
    const overHttp = (await (await fetch(`${emulator.url}/__emulator/stats`)).json()) as Record<
      string,
      number
    >;
    expect(overHttp).toEqual(emulator.stats());
    const reset = await fetch(`${emulator.url}/__emulator/stats/reset`, { method: 'POST' });
    expect(await reset.json()).toEqual({ status: 'success' });
    expect(Object.values(emulator.stats())).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

it('should serve DEMO as the documented demo login', () => {
  expect(DEMO).toEqual({
    applicationCode: 'demo',
    organizationCode: 'acme',
    username: 'demo',
    password: 'demo-password',
    mobile: '5550100',
  });
});

describe('EMULATOR_ERROR_MESSAGES', () => {
  it('should put the object name the request read where a wording says {objectName}', async () => {
    const answer = await getAll(naming, namingDemo, 'com.acme.Invoce', { callback: 'cb' });
    expect(answer.body).toBe(
      'cb({"status":"error","message":"Object type \'com.acme.Invoce\' is not registered for this application"});',
    );
  });
});
