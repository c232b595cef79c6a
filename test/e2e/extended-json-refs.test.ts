/**
 * A reference held as MongoDB's extended JSON `{"$oid": …}` (a Spring entity's `ObjectId`) is followed by the
 * generic `ref` as by the typed `@ref`: neither answers `null` for a reference the record holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { getAll, login, saveObject } from '../support/emulator-wire.ts';

const h = useHarness({ listen: false });
let token: string;
let orderId: string;
let customerId: string;

beforeAll(async () => {
  const credentials = { ...(await login(h.emulator)), organizationCode: 'acme' };
  const customers = await getAll(h.emulator, credentials, 'com.example.Customer', { pageSize: '1' });
  customerId = (customers.json.data as { _id: string }[])[0]!._id;
  const saved = await saveObject(h.emulator, credentials, 'com.example.Order', {
    number: 'ORD-OID-1',
    status: 'NEW',
    customer: { id: { $oid: customerId } },
  });
  expect(saved.json.status, saved.body).toBe('success');
  orderId = saved.json.savedObjectId as string;
  token = await h.login();
});

const ask = (query: string) => h.post(query, {}, { authorization: `Bearer ${token}` });

describe('a reference held as {"$oid": …}', () => {
  it('should be followed by the generic ref', async () => {
    const answer = await ask(
      `{ object(objectName: "com.example.Order", id: "${orderId}") { ref(path: "customer.id", objectName: "com.example.Customer") { id } } }`,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ object: { ref: { id: customerId } } });
  });

  it('should be followed by the typed @ref', async () => {
    const answer = await ask(`{ order(id: "${orderId}") { number customer { id } } }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ order: { number: 'ORD-OID-1', customer: { id: customerId } } });
  });
});
