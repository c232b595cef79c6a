import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startEmulator } from '../../emulator/index.ts';
import type { RunningEmulator } from '../../emulator/index.ts';
import type {
  PageStartMode,
  UpstreamCallEvent,
  UpstreamClient,
  UpstreamCredentials,
  UpstreamRecord,
} from '../../src/upstream/client/types.ts';
import { clientAt, failureOf } from '../support/client-for.ts';

const LOAN_TYPE = 'com.example.LoanType';
const CUSTOMER = 'com.example.Customer';
const ORDER = 'com.example.Order';

function clientOf(
  emulator: RunningEmulator,
  options: { pageStartMode?: PageStartMode; onCall?: (e: UpstreamCallEvent) => void } = {},
) {
  return clientAt(emulator.url, options);
}

async function demoCredentials(client: UpstreamClient): Promise<UpstreamCredentials> {
  const { token } = await client.loginJson(DEMO.username, DEMO.password);
  return {
    username: DEMO.username,
    apiToken: token,
    applicationCode: DEMO.applicationCode,
    organizationCode: DEMO.organizationCode,
  };
}

const byId = (id: string) => [{ fieldName: '_id', operator: 'matches', value: id }];

describe.each(['plain', 'guard'] as const)(
  'client against the emulator with %s JSONP wrappers',
  (wrapper) => {
    let emulator: RunningEmulator;
    let client: UpstreamClient;
    let credentials: UpstreamCredentials;
    let badToken: UpstreamCredentials;
    const events: UpstreamCallEvent[] = [];

    beforeAll(async () => {
      emulator = await startEmulator({ wrapper });
      client = clientOf(emulator, { onCall: (event) => events.push(event) });
      credentials = await demoCredentials(client);
      badToken = { ...credentials, apiToken: 'tok-not-issued-5f2c' };
    });
    afterAll(async () => {
      await client.close();
      await emulator.close();
    });

    it('should log in with JSON and get a token', async () => {
      const result = await client.loginJson(DEMO.username, DEMO.password);
      expect(result.token).toEqual(expect.any(String));
    });

    it('should refuse a wrong password on the JSON login as unauthenticated', async () => {
      expect(await failureOf(client.loginJson(DEMO.username, 'wrong'))).toMatchObject({
        kind: 'unauthenticated',
      });
    });

    it('should log in with the form by username or mobile number and echo what was sent', async () => {
      const byName = await client.loginForm(DEMO.username, DEMO.password);
      const byMobile = await client.loginForm(DEMO.mobile, DEMO.password);
      expect(byName).toMatchObject({ username: DEMO.username, userId: expect.any(String) as unknown });
      expect(byMobile).toMatchObject({ username: DEMO.mobile, userId: byName.userId });
      expect(byName.token).toEqual(expect.any(String));
    });

    it('should refuse a wrong password on the form login as unauthenticated', async () => {
      const error = await failureOf(client.loginForm(DEMO.mobile, 'wrong'));
      expect(error).toMatchObject({
        kind: 'unauthenticated',
        upstreamMessage: expect.any(String) as unknown,
      });
    });

    it('should read a page of getAll with the total count', async () => {
      const page = await client.getAll(credentials, LOAN_TYPE, [], 10, 0);
      expect(page.records).toHaveLength(10);
      expect(page.totalCount).toBe(30);
      for (const record of page.records) expect(record._id).toEqual(expect.any(String));
    });

    it('should filter getAll by a dotted field path', async () => {
      const [order] = (await client.getAll(credentials, ORDER, [], 1, 0)).records;
      const customerId = (order!.customer as { id: string }).id;
      const page = await client.getAll(
        credentials,
        ORDER,
        [{ fieldName: 'customer.id', operator: 'matches', value: customerId }],
        100,
        0,
      );
      expect(page.totalCount).toBeGreaterThan(0);
      for (const record of page.records) expect((record.customer as { id: string }).id).toBe(customerId);
    });

    it('should read one object by id with getObject, and null for an unknown id', async () => {
      const [customer] = (await client.getAll(credentials, CUSTOMER, [], 1, 0)).records;
      expect(await client.getObject(credentials, CUSTOMER, byId(customer!._id))).toEqual(customer);
      expect(await client.getObject(credentials, CUSTOMER, byId('no-such-id'))).toBeNull();
    });

    it('should accept the mobile number as username on reads', async () => {
      const page = await client.getAll({ ...credentials, username: DEMO.mobile }, LOAN_TYPE, [], 1, 0);
      expect(page.totalCount).toBe(30);
    });

    it.each(['getAll', 'getObject', 'metadata'] as const)(
      'should report a bad token on %s as unauthenticated, without retrying',
      async (operation) => {
        emulator.resetStats();
        const call =
          operation === 'getAll'
            ? client.getAll(badToken, ORDER, [], 5, 0)
            : operation === 'getObject'
              ? client.getObject(badToken, ORDER, byId('x'))
              : client.getMetadata(badToken, 'x', 'none');
        expect(await failureOf(call)).toMatchObject({ kind: 'unauthenticated', operation });
        expect(emulator.stats()[operation]).toBe(1);
      },
    );

    it('should report an unknown object name as the caller mistake, with the upstream message', async () => {
      const error = await failureOf(client.getAll(credentials, 'com.example.Nope', [], 5, 0));
      expect(error).toMatchObject({
        kind: 'rejected_input',
        blame: 'caller',
        upstreamMessage: 'unknown object name',
        argument: 'objectName',
        objectName: 'com.example.Nope',
      });
    });

    it('should fetch metadata of an object, and fail for an unknown one', async () => {
      const [loanType] = (await client.getAll(credentials, LOAN_TYPE, [], 1, 0)).records;
      const metadata = await client.getMetadata(credentials, loanType!._id, 'none');
      expect(metadata).toMatchObject({ objectId: loanType!._id, category: 'none' });
      expect(await failureOf(client.getMetadata(credentials, 'no-such-id', 'none'))).toMatchObject({
        kind: 'not_found',
      });
    });

    it('should create an object with save and update it with a second save naming its _id', async () => {
      const created = await client.save(credentials, CUSTOMER, { name: 'Edsger Dijkstra', city: 'Austin' });
      expect(created.savedObjectId).toEqual(expect.any(String));
      const updated = await client.save(credentials, CUSTOMER, {
        _id: created.savedObjectId,
        city: 'Nuenen',
      });
      expect(updated.savedObjectId).toBe(created.savedObjectId);
      const stored = await client.getObject(credentials, CUSTOMER, byId(created.savedObjectId));
      expect(stored).toMatchObject({ _id: created.savedObjectId, name: 'Edsger Dijkstra', city: 'Nuenen' });
    });

    it('should report SAVE_ERR_401 for a bad token as unauthenticated, and never retry a save', async () => {
      emulator.resetStats();
      const error = await failureOf(client.save(badToken, CUSTOMER, { name: 'x' }));
      expect(error).toMatchObject({ kind: 'unauthenticated', upstreamErrorCode: 'SAVE_ERR_401' });
      expect(emulator.stats().save).toBe(1);
    });

    it('should report a save of an unknown type as the caller mistake, with its code', async () => {
      const error = await failureOf(client.save(credentials, 'com.example.Nope', { name: 'x' }));
      expect(error).toMatchObject({ kind: 'rejected_input', upstreamErrorCode: 'SAVE_ERR_400' });
    });

    it('should update fields of an object and answer the changed ones', async () => {
      const { savedObjectId } = await client.save(credentials, ORDER, { status: 'NEW', total: 10 });
      const result = await client.update(credentials, ORDER, savedObjectId, { status: 'PAID', total: 10 });
      expect(result).toMatchObject({ savedObjectId, updatedFields: { status: 'PAID' } });
      const stored: UpstreamRecord | null = await client.getObject(credentials, ORDER, byId(savedObjectId));
      expect(stored).toMatchObject({ status: 'PAID', total: 10 });
    });

    it('should report an update of an unknown id as not_found', async () => {
      const error = await failureOf(client.update(credentials, ORDER, 'no-such-id', { status: 'PAID' }));
      expect(error).toMatchObject({ kind: 'not_found', upstreamMessage: 'object not found' });
    });

    it('should report an update with a bad token as unauthenticated', async () => {
      expect(await failureOf(client.update(badToken, ORDER, 'x', { a: 1 }))).toMatchObject({
        kind: 'unauthenticated',
      });
    });

    it('should report every call to onCall without its token', () => {
      expect(events.length).toBeGreaterThan(10);
      expect(new Set(events.map((event) => event.operation))).toEqual(
        new Set(['loginJson', 'loginForm', 'metadata', 'getObject', 'getAll', 'save', 'update']),
      );
      expect(JSON.stringify(events)).not.toContain(credentials.apiToken);
    });
  },
);

describe.each(['page0', 'page1', 'offset'] as const)(
  'paging against an emulator counting pageStart as %s',
  (pageStart) => {
    let emulator: RunningEmulator;
    let client: UpstreamClient;

    beforeAll(async () => {
      emulator = await startEmulator({ pageStart, wrapper: pageStart === 'page1' ? 'guard' : 'plain' });
      client = clientOf(emulator, { pageStartMode: pageStart });
    });
    afterAll(async () => {
      await client.close();
      await emulator.close();
    });

    it('should walk every page exactly once, in order', async () => {
      const credentials = await demoCredentials(client);
      const everything = await client.getAll(credentials, LOAN_TYPE, [], 100, 0);
      const pages = await Promise.all(
        [0, 1, 2, 3].map((index) => client.getAll(credentials, LOAN_TYPE, [], 8, index)),
      );
      expect(pages.map((page) => page.records.length)).toEqual([8, 8, 8, 6]);
      expect(pages.flatMap((page) => page.records)).toEqual(everything.records);
      for (const page of pages) expect(page.totalCount).toBe(30);
    });

    it('should answer an empty page past the end', async () => {
      const credentials = await demoCredentials(client);
      const page = await client.getAll(credentials, LOAN_TYPE, [], 10, 5);
      expect(page).toEqual({ records: [], totalCount: 30 });
    });
  },
);
