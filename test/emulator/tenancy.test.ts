import { beforeAll, expect, it } from 'vitest';
import { DEMO } from '../../emulator/index.ts';
import {
  filter,
  getAll,
  getJsonp,
  ids,
  login,
  saveObject,
  type Credentials,
} from '../support/emulator-wire.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const { emulator, demo } = useEmulator();
let ops: Credentials;
let admin: Credentials;
let crm: Credentials;

beforeAll(async () => {
  [ops, admin, crm] = await Promise.all([
    login(emulator, 'ops', 'ops-password'),
    login(emulator, 'admin', 'admin-password'),
    login(emulator, 'crm', 'crm-password', 'crm'),
  ]);
});

const CUSTOMER = 'com.example.Customer';
const LOAN = 'com.example.LoanType';
const all = (who: Credentials, organizationCode?: string) =>
  getAll(emulator, { ...who, organizationCode }, CUSTOMER, { pageSize: '1000' }).then(ids);

it('should show each user only the objects of its own tenant', async () => {
  const [acme, globex, initech] = await Promise.all([all(demo, 'acme'), all(ops, 'globex'), all(crm)]);
  expect(acme.length).toBeGreaterThan(0);
  expect(globex.length).toBeGreaterThan(0);
  expect(initech.length).toBeGreaterThan(0);
  const everyId = [...acme, ...globex, ...initech];
  expect(new Set(everyId).size).toBe(everyId.length);
  expect(await all(demo)).toEqual(acme);
});

it('should filter by organizationCode when sent, and span the user organizations when not', async () => {
  const [acme, globex, both] = await Promise.all([all(admin, 'acme'), all(admin, 'globex'), all(admin)]);
  expect(acme).toEqual(await all(demo, 'acme'));
  expect(globex).toEqual(await all(ops, 'globex'));
  expect(new Set(both)).toEqual(new Set([...acme, ...globex]));
});

it('should refuse an organization the user does not belong to', async () => {
  const answer = await getAll(emulator, { ...demo, organizationCode: 'globex' }, CUSTOMER);
  expect(answer.json.status).toBe('error');
  expect(answer.json.message).toMatch(/organization/);
});

it('should behave as not found for another tenant id, on every operation', async () => {
  const [foreign] = await all(ops, 'globex');
  const byId = await getAll(emulator, demo, CUSTOMER, { filterCommand: filter(['_id', foreign!]) });
  expect(byId.json).toEqual({ status: 'success', data: [], totalCount: 0 });
  const one = await getJsonp(emulator, '/studio/jsonp/getObject/', {
    ...demo,
    objectName: CUSTOMER,
    filterCommand: filter(['_id', foreign!]),
  });
  expect(one.json.data).toEqual([]);
  const metadata = await getJsonp(emulator, `/studio/jsonp/metadata/get/${foreign!}/`, demo);
  expect(metadata.json).toEqual({ status: 'error', message: 'object not found' });
  const update = await getJsonp(emulator, `/studio/jsonp/update/${foreign!}`, {
    ...demo,
    objectName: CUSTOMER,
    data: JSON.stringify({ name: 'stolen' }),
  });
  expect(update.json).toEqual({ status: 'error', message: 'object not found' });
  const otherApp = await getJsonp(emulator, `/studio/jsonp/metadata/get/${foreign!}/`, crm);
  expect(otherApp.json.message).toBe('object not found');
});

it('should not let a save with another tenant _id touch that object', async () => {
  const [foreign] = await all(ops, 'globex');
  const save = await saveObject(emulator, { ...demo, organizationCode: DEMO.organizationCode }, CUSTOMER, {
    _id: foreign,
    name: 'overwritten',
  });
  expect(save.json.status).toBe('success');
  expect(save.json.savedObjectId).not.toBe(foreign);
  const theirs = await getAll(emulator, { ...ops, organizationCode: 'globex' }, CUSTOMER, {
    filterCommand: filter(['_id', foreign!]),
  });
  expect((theirs.json.data as { name: string }[])[0]!.name).not.toBe('overwritten');
});

it('should refuse a save into an organization the user does not belong to', async () => {
  const save = await saveObject(emulator, { ...demo, organizationCode: 'globex' }, LOAN, { loanType: 'x' });
  expect(save.json).toEqual({
    status: 'error',
    message: expect.stringMatching(/organization/),
    error_code: 'SAVE_ERR_403',
  });
  expect(await all(ops, 'globex')).not.toContain(save.json.savedObjectId);
});

it('should refuse a token of one application used with another applicationCode', async () => {
  const answer = await getAll(emulator, { ...crm, applicationCode: 'demo' }, CUSTOMER);
  expect(answer.json.message).toMatch(/credentials/);
});
