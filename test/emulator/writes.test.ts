import { describe, expect, it } from 'vitest';
import { DEMO } from '../../emulator/index.ts';
import { filter, getAll, getJsonp, postJson } from '../support/emulator-wire.ts';
import { demoSaveBody } from '../support/demo-save-body.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const { emulator, demo } = useEmulator();

const LOAN = 'com.example.LoanType';
const ORDER = 'com.example.Order';

const save = (body: unknown, query = '?callback=cb') =>
  postJson(emulator, `/studio/jsonp/save${query}`, body, 'cb');
const saveBody = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  demoSaveBody(demo.apiToken, LOAN, data, extra);
const readOne = async (id: string, objectName = LOAN) => {
  const answer = await getAll(emulator, demo, objectName, { filterCommand: filter(['_id', id]) });
  return (answer.json.data as Record<string, unknown>[])[0];
};
const update = (id: string, data: unknown, extra: Record<string, string | undefined> = {}) =>
  getJsonp(emulator, `/studio/jsonp/update/${id}`, {
    ...demo,
    organizationCode: DEMO.organizationCode,
    objectName: LOAN,
    data: JSON.stringify(data),
    ...extra,
  });

describe('save', () => {
  it('should create an object with a new 24-hex id and answer status, message and savedObjectId', async () => {
    const answer = await save(saveBody({ loanType: 'Solar', description: 'Panels', rate: 1.9 }));
    expect(answer.contentType).toBe('application/javascript; charset=utf-8');
    expect(answer.json).toEqual({
      status: 'success',
      message: 'object created',
      savedObjectId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const id = answer.json.savedObjectId as string;
    expect(await readOne(id)).toEqual({ _id: id, loanType: 'Solar', description: 'Panels', rate: 1.9 });
    const metadata = await getJsonp(emulator, `/studio/jsonp/metadata/get/${id}/`, demo);
    expect(metadata.json.data).toMatchObject({ objectId: id, objectName: LOAN, version: 1 });
  });

  it('should append new objects at the end of the stable order', async () => {
    const { json } = await save(saveBody({ loanType: 'Last' }));
    const answer = await getAll(emulator, demo, LOAN, { pageSize: '1000' });
    const data = answer.json.data as { _id: string }[];
    expect(data.at(-1)!._id).toBe(json.savedObjectId);
  });

  it('should update (merge fields) when data._id names an object of that type and tenant', async () => {
    const created = await save(saveBody({ loanType: 'Merge', description: 'before', rate: 2 }));
    const id = created.json.savedObjectId as string;
    const answer = await save(saveBody({ _id: id, description: 'after', extra: { a: 1 } }));
    expect(answer.json).toEqual({ status: 'success', message: 'object updated', savedObjectId: id });
    expect(await readOne(id)).toEqual({
      _id: id,
      loanType: 'Merge',
      description: 'after',
      rate: 2,
      extra: { a: 1 },
    });
  });

  it('should create a new object when data._id names nothing (or an object of another type)', async () => {
    const [order] = (await getAll(emulator, demo, ORDER, { pageSize: '1' })).json.data as { _id: string }[];
    for (const _id of ['aaaaaaaaaaaaaaaaaaaaaaaa', order!._id]) {
      const answer = await save(saveBody({ _id, loanType: 'New' }));
      expect(answer.json.message).toBe('object created');
      expect(answer.json.savedObjectId).not.toBe(_id);
    }
    expect((await readOne(order!._id, ORDER))!.loanType).toBeUndefined();
  });

  it('should take the callback from the body when the query has none', async () => {
    const answer = await postJson(
      emulator,
      '/studio/jsonp/save',
      saveBody({ loanType: 'Body' }, { callback: 'fromBody' }),
      'fromBody',
    );
    expect(answer.body).toMatch(/^fromBody\(\{"status":"success"/);
  });

  it('should answer HTTP 400 when neither the query nor the body names a valid callback', async () => {
    expect(
      (await postJson(emulator, '/studio/jsonp/save', saveBody({}, { callback: undefined }))).status,
    ).toBe(400);
    expect((await postJson(emulator, '/studio/jsonp/save?callback=a-b', saveBody({}))).status).toBe(400);
  });

  it.each([
    ['a forged token', { apiToken: 'forged' }, 'SAVE_ERR_401', /token/],
    ['a missing token', { apiToken: undefined }, 'SAVE_ERR_401', /apiToken/],
    ['a missing organizationCode', { organizationCode: '' }, 'SAVE_ERR_401', /organizationCode/],
    ['missing data', { data: undefined }, 'SAVE_ERR_401', /data/],
    ['another applicationCode', { applicationCode: 'crm' }, 'SAVE_ERR_401', /credentials/],
    ['data that is an array', { data: [1] }, 'SAVE_ERR_400', /data/],
    ['an unknown object name', { objectName: 'com.example.Nope' }, 'SAVE_ERR_400', /unknown object name/],
    ['a non-string _id', { data: { _id: 5 } }, 'SAVE_ERR_400', /_id/],
  ])('should answer status error with error_code for %s', async (_, extra, code, message) => {
    const answer = await save(saveBody({ loanType: 'x' }, extra));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      status: 'error',
      message: expect.stringMatching(message),
      error_code: code,
    });
  });

  it('should answer a plain error for malformed JSON and for a body over 1 MB', async () => {
    expect((await save('{"objectName":')).json).toMatchObject({
      status: 'error',
      message: 'malformed JSON body',
    });
    const big = await save(saveBody({ blob: 'x'.repeat(1_200_000) }));
    expect(big.json).toMatchObject({ status: 'error', message: 'request body larger than 1 MB' });
  });

  it('should store a field named __proto__ as a plain field', async () => {
    const answer = await save(
      `{"objectName":"${LOAN}","apiToken":"${demo.apiToken}","applicationCode":"demo","organizationCode":"acme","data":{"__proto__":{"polluted":true},"loanType":"Proto"}}`,
    );
    const stored = await readOne(answer.json.savedObjectId as string);
    expect(JSON.stringify(stored)).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('update', () => {
  it('should change the fields and answer only those whose value changed', async () => {
    const id = (await save(saveBody({ loanType: 'Upd', description: 'same', rate: 4 }))).json
      .savedObjectId as string;
    const answer = await update(id, { description: 'same', rate: 4.5, note: 'new' });
    expect(answer.json).toEqual({
      status: 'success',
      message: 'object updated',
      savedObjectId: id,
      updatedFields: { rate: 4.5, note: 'new' },
    });
    expect(await readOne(id)).toEqual({
      _id: id,
      loanType: 'Upd',
      description: 'same',
      rate: 4.5,
      note: 'new',
    });
    const metadata = await getJsonp(emulator, `/studio/jsonp/metadata/get/${id}/`, demo);
    expect(metadata.json.data).toMatchObject({ version: 2 });
    const again = await update(id, { rate: 4.5 });
    expect(again.json.updatedFields).toEqual({});
  });

  it('should accept the username as mobile number and without organizationCode', async () => {
    const id = (await save(saveBody({ loanType: 'Mobile' }))).json.savedObjectId as string;
    const answer = await update(
      id,
      { loanType: 'Mobile 2' },
      { username: DEMO.mobile, organizationCode: undefined },
    );
    expect(answer.json.status).toBe('success');
  });

  it.each([
    ['an unknown id', 'ffffffffffffffffffffffff', {}, /object not found/],
    ['another object type', 'ORDER', {}, /object not found/],
    ['a forged token', 'NEW', { apiToken: 'forged' }, /token/],
    ['another username', 'NEW', { username: 'ops' }, /credentials/],
    ['a missing objectName', 'NEW', { objectName: undefined }, /objectName/],
    ['data that is not JSON', 'NEW', { data: '{x' }, /data/],
    ['data that is a string', 'NEW', { data: '"x"' }, /data/],
    ['missing data', 'NEW', { data: undefined }, /data/],
  ])('should answer status error for %s', async (_, which, extra, message) => {
    const [order] = (await getAll(emulator, demo, ORDER, { pageSize: '1' })).json.data as { _id: string }[];
    const id =
      which === 'NEW'
        ? ((await save(saveBody({ loanType: 'E' }))).json.savedObjectId as string)
        : which === 'ORDER'
          ? order!._id
          : which;
    const answer = await update(id, { loanType: 'changed' }, extra);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'error', message: expect.stringMatching(message) });
  });

  it('should not let data change the _id', async () => {
    const id = (await save(saveBody({ loanType: 'Keep' }))).json.savedObjectId as string;
    const answer = await update(id, { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', loanType: 'x' });
    expect(answer.json).toEqual({ status: 'error', message: 'the _id of an object cannot be changed' });
    const same = await update(id, { _id: id, loanType: 'y' });
    expect(same.json.updatedFields).toEqual({ loanType: 'y' });
    expect((await readOne(id))!._id).toBe(id);
  });

  it('should answer HTTP 400 for a bad callback', async () => {
    const answer = await update('ffffffffffffffffffffffff', {}, { callback: '<script>' });
    expect(answer.status).toBe(400);
  });
});
