import { describe, expect, it } from 'vitest';
import { credentialsKey, withCoalescing } from '../../src/upstream/batching/coalesce.ts';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { createRecordingClient, deferred, type Deferred } from '../support/recording-client.ts';
import { demoCredentials } from '../support/demo-credentials.ts';

const ORDER = 'com.acme.Order';
const alice = demoCredentials('alice', 'tok-a');
const open = [{ fieldName: 'status', operator: 'matches', value: 'open' }];

/** A fake whose calls all wait for `gate`, wrapped with coalescing. */
function setup(gate: Deferred<void> = deferred()) {
  const client = createRecordingClient({
    records: { [ORDER]: [{ _id: 'o1', status: 'open' }] },
    intercept: () => gate.promise,
  });
  return { client, coalescing: withCoalescing(client), gate };
}

describe('withCoalescing', () => {
  it('should make one upstream call for identical concurrent reads and give both callers the answer', async () => {
    const { client, coalescing, gate } = setup();
    const first = coalescing.getAll(alice, ORDER, open, 10, 0);
    const second = coalescing.getAll({ ...alice }, ORDER, [{ ...open[0]! }], 10, 0);
    expect(coalescing.inflightCount()).toBe(1);
    gate.resolve();
    const expected = { records: [{ _id: 'o1', status: 'open' }], totalCount: 1 };
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    expect(client.calls).toEqual([['getAll', [ORDER, open, 10, 0]]]);
  });

  it.each([
    ['getObject', (c: ReturnType<typeof withCoalescing>) => c.getObject(alice, ORDER, open)],
    ['getMetadata', (c: ReturnType<typeof withCoalescing>) => c.getMetadata(alice, 'm1', 'none')],
  ])('should share identical concurrent %s reads', async (_name, read) => {
    const { client, coalescing, gate } = setup();
    const both = Promise.all([read(coalescing), read(coalescing)]);
    gate.resolve();
    const [a, b] = await both;
    expect(b).toEqual(a);
    expect(client.calls).toHaveLength(1);
  });

  it('should not share reads that differ in any argument', async () => {
    const { client, coalescing, gate } = setup();
    const reads = Promise.all([
      coalescing.getAll(alice, ORDER, open, 10, 0),
      coalescing.getAll(alice, ORDER, open, 10, 1),
      coalescing.getAll(alice, ORDER, open, 5, 0),
      coalescing.getAll(alice, ORDER, [], 10, 0),
      coalescing.getAll(alice, 'com.acme.Customer', open, 10, 0),
      coalescing.getObject(alice, ORDER, open),
    ]);
    gate.resolve();
    await reads;
    expect(client.calls).toHaveLength(6);
  });

  it.each([
    ['username', { username: 'bob' }],
    ['apiToken', { apiToken: 'tok-b' }],
    ['applicationCode', { applicationCode: 'other' }],
    ['organizationCode', { organizationCode: undefined }],
    ['sessionCookie', { sessionCookie: 'JSESSIONID=b' }],
  ])('should not share a read between callers whose %s differs', async (_name, change) => {
    const { client, coalescing, gate } = setup();
    const reads = Promise.all([
      coalescing.getAll(alice, ORDER, open, 10, 0),
      coalescing.getAll({ ...alice, ...change }, ORDER, open, 10, 0),
    ]);
    gate.resolve();
    await reads;
    expect(client.calls).toHaveLength(2);
    expect(client.credentialsOfCalls).toEqual([alice, { ...alice, ...change }]);
  });

  it('should keep callers apart when one changes its credentials object between reads', async () => {
    const { client, coalescing, gate } = setup();
    const mutable = { ...alice };
    const first = coalescing.getAll(mutable, ORDER, open, 10, 0);
    mutable.apiToken = 'tok-b';
    const second = coalescing.getAll(mutable, ORDER, open, 10, 0);
    gate.resolve();
    await Promise.all([first, second]);
    expect(client.calls).toHaveLength(2);
  });

  it('should share reads of one frozen credentials object, as the gateway passes them', async () => {
    const { client, coalescing, gate } = setup();
    const frozen = Object.freeze({ ...alice });
    const reads = Promise.all([
      coalescing.getAll(frozen, ORDER, open, 10, 0),
      coalescing.getAll(frozen, ORDER, open, 10, 0),
      coalescing.getAll(Object.freeze({ ...alice, apiToken: 'tok-b' }), ORDER, open, 10, 0),
    ]);
    gate.resolve();
    await reads;
    expect(client.calls).toHaveLength(2);
  });

  it('should call upstream again for a read that starts after the first one settled', async () => {
    const { client, coalescing, gate } = setup();
    gate.resolve();
    await coalescing.getAll(alice, ORDER, open, 10, 0);
    expect(coalescing.inflightCount()).toBe(0);
    await coalescing.getAll(alice, ORDER, open, 10, 0);
    expect(client.calls).toHaveLength(2);
  });

  it('should deliver a failure to every waiter and forget it', async () => {
    const failure = new UpstreamError('unavailable', 'refused', { operation: 'getAll' });
    const { client, coalescing, gate } = setup();
    const first = coalescing.getAll(alice, ORDER, open, 10, 0);
    const second = coalescing.getAll(alice, ORDER, open, 10, 0);
    gate.reject(failure);
    await expect(first).rejects.toBe(failure);
    await expect(second).rejects.toBe(failure);
    expect(coalescing.inflightCount()).toBe(0);
    expect(client.calls).toHaveLength(1);
  });

  it('should never share writes or logins: the read handle has none to share', () => {
    const { coalescing } = setup();
    for (const operation of ['save', 'update', 'loginJson', 'loginForm']) {
      expect(operation in coalescing).toBe(false);
    }
    // @ts-expect-error the read handle has no save: the type checker refuses a write through it
    expect(coalescing.save).toBeUndefined();
  });
});

describe('credentialsKey', () => {
  it('should not contain the apiToken and should tell apart every credential', () => {
    const keys = [
      alice,
      { ...alice, username: 'bob' },
      { ...alice, apiToken: 'tok-b' },
      { ...alice, applicationCode: 'x' },
      { ...alice, organizationCode: undefined },
      { ...alice, organizationCode: 'null' },
      { ...alice, apiToken: '', sessionCookie: 'JSESSIONID=cookie-a' },
      { ...alice, apiToken: '', sessionCookie: 'JSESSIONID=cookie-b' },
    ].map(credentialsKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).not.toMatch(/tok-|cookie-/);
    expect(credentialsKey({ ...alice })).toBe(credentialsKey(alice));
  });
});
