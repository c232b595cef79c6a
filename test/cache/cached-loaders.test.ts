/**
 * The response cache behind the request's loaders: what a loader refused (a record of another organization,
 * an answer that breaks the filter) is never stored, so no later read can be served it; what it verified
 * is, for every kind of read; a written type is read upstream for the rest of its request.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryVersions } from '../../src/cache/cache-versions.ts';
import { RequestCache } from '../../src/cache/request-cache.ts';
import { createResponseCache } from '../../src/cache/response-cache.ts';
import { invalidatingWrites } from '../../src/cache/invalidating-writes.ts';
import { createLoaders, type Loaders } from '../../src/upstream/batching/loaders.ts';
import type { UpstreamRecord, UpstreamReads } from '../../src/upstream/client/types.ts';
import { demoCredentials } from '../support/demo-credentials.ts';

const ORDER = 'com.acme.Order';
const nord = { ...demoCredentials('demo', 't', 'nord'), userKey: 'demo\u0000u1' };

function setup(answer: () => UpstreamRecord[]) {
  const cache = createResponseCache({
    policies: new Map([[ORDER, { maxAgeSeconds: 60, scope: 'PUBLIC' as const }]]),
    versions: createMemoryVersions(),
    maxBytes: 1_000_000,
    maxBytesPerUser: 1_000_000,
    maxBytesPerTenant: 1_000_000,
    staleIfErrorSeconds: 0,
  });
  let calls = 0;
  const client: UpstreamReads = {
    getAll: () => {
      calls += 1;
      const records = answer();
      return Promise.resolve({ records, totalCount: records.length });
    },
    getObject: () => {
      calls += 1;
      return Promise.resolve(answer()[0] ?? null);
    },
    getMetadata: () => {
      calls += 1;
      return Promise.resolve({ createdBy: 'u1' });
    },
  };
  const request = (): Loaders =>
    createLoaders({
      client,
      credentials: nord,
      matchesMode: 'regex',
      matchesCase: 'sensitive',
      maxIdLength: 100,
      cache: new RequestCache(cache, nord),
    });
  return { cache, request, calls: () => calls };
}

const reads: [string, (loaders: Loaders) => Promise<unknown>][] = [
  ['an object by id', (loaders) => loaders.object(ORDER, 'o1')],
  [
    'a filtered getObject',
    (loaders) => loaders.find(ORDER, [{ fieldName: 'status', operator: 'matches', value: 'open' }]),
  ],
  ['a page', (loaders) => loaders.page(ORDER, [], 10, 0)],
];

describe('the cache behind the loaders', () => {
  it.each(reads)('stores nothing of %s the tenant check refused', async (_, read) => {
    const t = setup(() => [{ _id: 'o1', status: 'open', organizationCode: 'sued' }]);
    await expect(read(t.request())).rejects.toMatchObject({ kind: 'tenant_mismatch' });
    await expect(read(t.request())).rejects.toMatchObject({ kind: 'tenant_mismatch' });
    expect(t.cache.size()).toBe(0);
    expect(t.calls()).toBe(2);
  });

  it.each(reads)('answers %s from the cache once verified', async (_, read) => {
    const t = setup(() => [{ _id: 'o1', status: 'open', organizationCode: 'nord' }]);
    const first = await read(t.request());
    expect(await read(t.request())).toEqual(first);
    expect(t.calls()).toBe(1);
  });

  it('caches metadata only when the object type is known', async () => {
    const t = setup(() => []);
    // A PUBLIC type: served only to an account the upstream already served records in its organization.
    t.cache.prove(nord);
    await t.request().metadata('o1', 'none');
    await t.request().metadata('o1', 'none');
    expect(t.calls()).toBe(2);
    await t.request().metadata('o1', 'none', ORDER);
    await t.request().metadata('o1', 'none', ORDER);
    expect(t.calls()).toBe(3);
  });

  it('serves PUBLIC entries only once the upstream served the account a record there, not an empty answer', async () => {
    let records: UpstreamRecord[] = [];
    const t = setup(() => records);
    await t.request().page(ORDER, [], 10, 0);
    expect(t.cache.isProven(nord)).toBe(false);
    records = [{ _id: 'o1', organizationCode: 'nord' }];
    await t.request().object(ORDER, 'o1');
    expect(t.cache.isProven(nord)).toBe(true);
  });

  it('reads a written type upstream for the rest of the request, and stores none of it', async () => {
    let status = 'open';
    const t = setup(() => [{ _id: 'o1', status, organizationCode: 'nord' }]);
    await t.request().object(ORDER, 'o1');
    const writer = t.request();
    // What a write's read-back does first (`read-back-write.ts`).
    writer.clearObject(ORDER, 'o1');
    status = 'closed';
    expect(await writer.object(ORDER, 'o1')).toMatchObject({ status: 'closed' });
    expect(t.calls()).toBe(2);
    // The read-back was not stored: a later request still meets the entry (the write's version replacement
    // is the write handle's, `invalidating-writes.ts`).
    expect(await t.request().object(ORDER, 'o1')).toMatchObject({ status: 'open' });
  });
});

describe('the write handle', () => {
  it('replaces the type’s version after every save and update, failed ones too', async () => {
    const versions = createMemoryVersions();
    const cache = createResponseCache({
      policies: new Map([[ORDER, { maxAgeSeconds: 60, scope: 'PRIVATE' as const }]]),
      versions,
      maxBytes: 1_000_000,
      maxBytesPerUser: 1_000_000,
      maxBytesPerTenant: 1_000_000,
      staleIfErrorSeconds: 0,
    });
    const failed = new Error('the answer was lost');
    const writes = invalidatingWrites(
      {
        loginJson: () => Promise.reject(new Error('not here')),
        loginForm: () => Promise.reject(new Error('not here')),
        save: () => Promise.resolve({ savedObjectId: 'o1', message: 'ok' }),
        update: () => Promise.reject(failed),
      },
      cache,
    );
    const before = versions.currentNow('nord', ORDER);
    await writes.save(nord, ORDER, { status: 'open' });
    const afterSave = versions.currentNow('nord', ORDER);
    expect(afterSave).not.toBe(before);
    await expect(writes.update(nord, ORDER, 'o1', { status: 'closed' })).rejects.toBe(failed);
    expect(versions.currentNow('nord', ORDER)).not.toBe(afterSave);
    // Another organization's version stays: its entries are not this write's.
    const sued = versions.currentNow('sued', ORDER);
    await writes.save(nord, ORDER, {});
    expect(versions.currentNow('sued', ORDER)).toBe(sued);
  });
});
