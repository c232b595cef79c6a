import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLoaders, type LoaderOptions } from '../../src/upstream/batching/loaders.ts';
import type { UpstreamRecord } from '../../src/upstream/client/types.ts';
import { createRecordingClient, type RecordingClientOptions } from '../support/recording-client.ts';
import { demoCredentials } from '../support/demo-credentials.ts';

const credentials = demoCredentials('demo', 'secret-token');
const ORDER = 'com.acme.Order';
const CUSTOMER = 'com.acme.Customer';

function order(id: string, extra: Record<string, unknown> = {}): UpstreamRecord {
  return { _id: id, status: 'open', ...extra };
}

function byIds(value: string): { fieldName: string; operator: string; value: string }[] {
  return [{ fieldName: '_id', operator: 'matches', value }];
}

/** A fake with `records`, and loaders over it. */
function setup(
  records: Record<string, UpstreamRecord[]>,
  options: Partial<Omit<LoaderOptions, 'client'>> = {},
  fake: Omit<RecordingClientOptions, 'records'> = {},
) {
  const client = createRecordingClient({ records, matchesMode: options.matchesMode, ...fake });
  const loaders = createLoaders({
    client,
    credentials,
    matchesMode: 'regex',
    matchesCase: 'sensitive',
    maxIdLength: loadConfig({}).upstreamRequestLimits.maxIdLength,
    ...options,
  });
  return { client, loaders };
}

describe('object() in regex mode', () => {
  it('should read every id loaded in one tick with one getAll on the alternation of the ids', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1'), order('o2'), order('o3'), order('o4')] });
    const found = await Promise.all(['o1', 'o2', 'o3'].map((id) => loaders.object(ORDER, id)));
    expect(found.map((r) => r?._id)).toEqual(['o1', 'o2', 'o3']);
    expect(client.calls).toEqual([['getAll', [ORDER, byIds('(?:o1|o2|o3)'), 3, 0]]]);
    expect(client.credentialsOfCalls).toEqual([credentials]);
  });

  it('should match ids with regex metacharacters literally', async () => {
    const ids = ['a.b', 'x|y', '(z)', 'a+', 'p-q', 'r&s~t#u v', 'back\\slash', '[c]{2}^$?*'];
    const lookalikes = ['axb', 'x', 'y', 'z', 'a', 'aa', 'cc', 'back\\\\slash'].map((id) => order(id));
    const { client, loaders } = setup({ [ORDER]: [...lookalikes, ...ids.map((id) => order(id))] });
    const found = await Promise.all(ids.map((id) => loaders.object(ORDER, id)));
    expect(found.map((r) => r?._id)).toEqual(ids);
    expect(client.calls).toHaveLength(1);
  });

  it('should answer null, not a lookalike, when only records that the raw pattern would match exist', async () => {
    const { loaders } = setup({ [ORDER]: ['axb', 'x', 'y', 'z', 'aa', 'a'].map((id) => order(id)) });
    const found = await Promise.all(['a.b', 'x|y', '(z)', 'a+', '.*'].map((id) => loaders.object(ORDER, id)));
    expect(found).toEqual([null, null, null, null, null]);
  });

  it('should ask once for an id loaded several times in one tick', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1'), order('o2')] });
    const found = await Promise.all(['o1', 'o2', 'o1', 'o1'].map((id) => loaders.object(ORDER, id)));
    expect(found.map((r) => r?._id)).toEqual(['o1', 'o2', 'o1', 'o1']);
    expect(client.calls).toEqual([['getAll', [ORDER, byIds('(?:o1|o2)'), 2, 0]]]);
  });

  it('should answer a second load of the same id in the same request from its cache', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1')] });
    const first = await loaders.object(ORDER, 'o1');
    const second = await loaders.object(ORDER, 'o1');
    expect(second).toBe(first);
    expect(client.calls).toHaveLength(1);
  });

  it('should answer null for an id the upstream does not return', async () => {
    const { loaders } = setup({ [ORDER]: [order('o1')] });
    const [present, missing] = await Promise.all([
      loaders.object(ORDER, 'o1'),
      loaders.object(ORDER, 'nope'),
    ]);
    expect(present?._id).toBe('o1');
    expect(missing).toBeNull();
  });

  it('should match records to ids by _id when the upstream answers in another order', async () => {
    const reverse = {
      reshapePage: (page: { records: UpstreamRecord[]; totalCount: number }) => ({
        ...page,
        records: [...page.records].reverse(),
      }),
    };
    const { loaders } = setup({ [ORDER]: [order('o1', { n: 1 }), order('o2', { n: 2 })] }, {}, reverse);
    const [o1, o2] = await Promise.all([loaders.object(ORDER, 'o1'), loaders.object(ORDER, 'o2')]);
    expect(o1).toEqual(order('o1', { n: 1 }));
    expect(o2).toEqual(order('o2', { n: 2 }));
  });

  it('should refuse a batch answered with a record it did not ask for, and never serve or cache it', async () => {
    const noisy = {
      reshapePage: (page: { records: UpstreamRecord[]; totalCount: number }) => ({
        records: [order('stranger'), ...page.records],
        totalCount: page.totalCount + 5,
      }),
    };
    const { client, loaders } = setup({ [ORDER]: [order('o1')] }, {}, noisy);
    const [o1, o2] = await Promise.allSettled([loaders.object(ORDER, 'o1'), loaders.object(ORDER, 'o2')]);
    for (const settled of [o1, o2]) {
      expect(settled.status).toBe('rejected');
      const reason: unknown = settled.status === 'rejected' ? settled.reason : undefined;
      expect(reason).toMatchObject({ kind: 'dialect_mismatch', assumption: { name: 'filter_answer' } });
      expect(String(reason)).toContain('a record not asked for');
    }
    // The stranger was not cached either: asking for it is a new upstream call.
    await loaders.object(ORDER, 'stranger').catch(() => null);
    expect(client.calls).toHaveLength(2);
  });

  it.each([
    {
      title: 'larger than maxBatchSize into several getAll calls',
      ids: ['o1', 'o2', 'o3', 'o4', 'o5'],
      options: { maxBatchSize: 2 },
      batches: [
        ['(?:o1|o2)', 2],
        ['(?:o3|o4)', 2],
        ['o5', 1],
      ],
    },
    {
      title: 'whose alternation, URL-encoded, would exceed maxCriterionLength',
      ids: ['aaaa', 'bbbb', 'cccc'],
      // '(?:aaaa|bbbb)' travels as (%3F%3Aaaaa%7Cbbbb): 19 bytes.
      options: { maxCriterionLength: 19 },
      batches: [
        ['(?:aaaa|bbbb)', 2],
        ['cccc', 1],
      ],
    },
  ] as const)('should split a batch $title', async ({ ids, options, batches }) => {
    const { client, loaders } = setup({ [ORDER]: ids.map((id) => order(id)) }, options);
    const found = await Promise.all(ids.map((id) => loaders.object(ORDER, id)));
    expect(found.map((r) => r?._id)).toEqual(ids);
    expect(client.calls).toEqual(
      batches.map(([alternation, size]) => ['getAll', [ORDER, byIds(alternation), size, 0]]),
    );
  });

  it('should read alone, with getObject, an id too long for the criterion', async () => {
    const long = 'x'.repeat(12);
    const { client, loaders } = setup({ [ORDER]: [order(long), order('o1')] }, { maxCriterionLength: 10 });
    const found = await Promise.all([long, 'o1'].map((id) => loaders.object(ORDER, id)));
    expect(found.map((r) => r?._id ?? null)).toEqual([long, 'o1']);
    expect(client.calls).toEqual([
      ['getAll', [ORDER, byIds('o1'), 1, 0]],
      ['getObject', [ORDER, byIds(long)]],
    ]);
  });

  it('should read an id loaded alone as a batch would: getAll on its pattern, getObject when too long, refused when empty', async () => {
    const long = 'x'.repeat(12);
    const { client, loaders } = setup({ [ORDER]: [order(long), order('a.b')] }, { maxCriterionLength: 10 });
    expect((await loaders.object(ORDER, 'a.b'))?._id).toBe('a.b');
    expect((await loaders.object(ORDER, long))?._id).toBe(long);
    await expect(loaders.object(ORDER, '')).rejects.toMatchObject({ kind: 'invalid_input', blame: 'caller' });
    expect(await loaders.object(ORDER, 'missing')).toBeNull();
    expect(client.calls).toEqual([
      ['getAll', [ORDER, byIds('a\\.b'), 1, 0]],
      ['getObject', [ORDER, byIds(long)]],
      ['getAll', [ORDER, byIds('missing'), 1, 0]],
    ]);
  });

  it('should fail only their own keys, as the caller mistake and without a call, for the empty id and an over-long id', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1')] }, { maxIdLength: 8 });
    const settled = await Promise.allSettled(
      ['', 'o1', 'y'.repeat(9)].map((id) => loaders.object(ORDER, id)),
    );
    expect(settled[1]).toEqual({ status: 'fulfilled', value: expect.objectContaining({ _id: 'o1' }) });
    for (const index of [0, 2]) {
      const result = settled[index];
      expect(result?.status).toBe('rejected');
      expect(result?.status === 'rejected' && result.reason).toMatchObject({
        kind: 'invalid_input',
        blame: 'caller',
      });
    }
    expect(client.calls).toEqual([['getAll', [ORDER, byIds('o1'), 1, 0]]]);
  });

  it('should make one call per object type and keep the same id in two types apart', async () => {
    const { client, loaders } = setup({
      [ORDER]: [order('42', { kind: 'order' })],
      [CUSTOMER]: [{ _id: '42', kind: 'customer' }],
    });
    const [o, c] = await Promise.all([loaders.object(ORDER, '42'), loaders.object(CUSTOMER, '42')]);
    expect(o?.kind).toBe('order');
    expect(c?.kind).toBe('customer');
    expect(client.calls).toEqual([
      ['getAll', [ORDER, byIds('42'), 1, 0]],
      ['getAll', [CUSTOMER, byIds('42'), 1, 0]],
    ]);
  });

  it('should reject only the keys of a batch that failed', async () => {
    const failure = new UpstreamError('unavailable', 'refused', { operation: 'getAll' });
    const ids = ['o1', 'o2', 'o3', 'o4'];
    const { loaders } = setup(
      { [ORDER]: ids.map((id) => order(id)) },
      { maxBatchSize: 2 },
      {
        intercept: ([, args]) => {
          if (JSON.stringify(args).includes('o3')) throw failure;
        },
      },
    );
    const settled = await Promise.allSettled(ids.map((id) => loaders.object(ORDER, id)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(settled[2]).toEqual({ status: 'rejected', reason: failure });
  });

  it('should report every upstream call it makes to onBatch with the number of keys served', async () => {
    const seen: [string, number][] = [];
    const { loaders } = setup(
      { [ORDER]: ['o1', 'o2', 'o3'].map((id) => order(id)) },
      { maxBatchSize: 2, onBatch: (operation, size) => seen.push([operation, size]) },
    );
    await Promise.all(['o1', 'o2', 'o3'].map((id) => loaders.object(ORDER, id)));
    await loaders.page(ORDER, [], 10, 0);
    await loaders.metadata('m1', 'none');
    expect(seen).toEqual([
      ['objectById', 2],
      ['objectById', 1],
      ['page', 1],
      ['metadata', 1],
    ]);
  });
});

describe('object() in exact mode', () => {
  const ids = Array.from({ length: 20 }, (_, i) => `o${i}.x`);
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('should read each id with its own getObject on the raw id, never above the concurrency cap', async () => {
    const { client, loaders } = setup(
      { [ORDER]: ids.map((id) => order(id)) },
      { matchesMode: 'exact', exactConcurrency: 3 },
      { intercept: tick },
    );
    const found = await Promise.all(ids.map((id) => loaders.object(ORDER, id)));
    expect(found.map((r) => r?._id)).toEqual(ids);
    expect(client.calls).toEqual(ids.map((id) => ['getObject', [ORDER, byIds(id)]]));
    expect(client.maxInFlight).toBe(3);
  });

  it('should hold the cap across object types read in the same request', async () => {
    const { client, loaders } = setup(
      { [ORDER]: ids.map((id) => order(id)), [CUSTOMER]: ids.map((id) => ({ _id: id })) },
      { matchesMode: 'exact', exactConcurrency: 2 },
      { intercept: tick },
    );
    await Promise.all(ids.flatMap((id) => [loaders.object(ORDER, id), loaders.object(CUSTOMER, id)]));
    expect(client.calls).toHaveLength(40);
    expect(client.maxInFlight).toBe(2);
  });

  it('should answer null for a missing id and fail only the id whose read failed', async () => {
    const failure = new UpstreamError('timeout', 'deadline', { operation: 'getObject' });
    const { loaders } = setup(
      { [ORDER]: [order('a'), order('b')] },
      { matchesMode: 'exact' },
      {
        intercept: ([, args]) => {
          if (JSON.stringify(args).includes('"b"')) throw failure;
        },
      },
    );
    const settled = await Promise.allSettled(['a', 'b', 'c'].map((id) => loaders.object(ORDER, id)));
    expect(settled).toEqual([
      { status: 'fulfilled', value: order('a') },
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: null },
    ]);
  });
});

describe('page() and metadata()', () => {
  const open = [{ fieldName: 'status', operator: 'matches', value: 'open' }];

  it('should ask once for identical pages in one request, whatever the key order of the criteria', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1'), order('o2', { status: 'closed' })] });
    const reordered = [{ value: 'open', operator: 'matches', fieldName: 'status' }];
    const [a, b] = await Promise.all([
      loaders.page(ORDER, open, 10, 0),
      loaders.page(ORDER, reordered, 10, 0),
    ]);
    expect(a).toEqual({ records: [order('o1')], totalCount: 1 });
    expect(b).toBe(a);
    await loaders.page(ORDER, open, 10, 1);
    expect(client.calls).toEqual([
      ['getAll', [ORDER, open, 10, 0]],
      ['getAll', [ORDER, open, 10, 1]],
    ]);
  });

  it('should prime object() with the records of a page', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1'), order('o2')] });
    await loaders.page(ORDER, open, 10, 0);
    const o2 = await loaders.object(ORDER, 'o2');
    expect(o2).toEqual(order('o2'));
    expect(client.calls).toHaveLength(1);
  });

  it('should keep the first version of a record a request saw, whether read by id or by page first', async () => {
    // Every read answers a new version of `o1`: which one a request keeps shows who primed whom.
    let version = 0;
    const fresh = (): UpstreamRecord => ({ _id: 'o1', version: (version += 1) });
    const client = {
      // Pages of one record of two: each page holds what its total leaves (`verifyPageLength`).
      getAll: () => Promise.resolve({ records: [fresh()], totalCount: 2 }),
      getObject: () => Promise.resolve(fresh()),
      getMetadata: () => Promise.resolve(null),
    };
    const make = () =>
      createLoaders({
        client,
        credentials,
        matchesMode: 'regex',
        matchesCase: 'sensitive',
        maxIdLength: 100,
      });

    const byIdFirst = make();
    expect(await byIdFirst.object(ORDER, 'o1')).toEqual({ _id: 'o1', version: 1 });
    await byIdFirst.page(ORDER, open, 1, 0);
    await byIdFirst.page(ORDER, open, 1, 1);
    expect(await byIdFirst.object(ORDER, 'o1')).toEqual({ _id: 'o1', version: 1 });

    const pageFirst = make();
    await pageFirst.page(ORDER, open, 1, 0);
    await pageFirst.page(ORDER, open, 1, 1);
    expect(await pageFirst.object(ORDER, 'o1')).toEqual({ _id: 'o1', version: 4 });
    expect(version).toBe(5);

    // After a write, the next read asks the upstream again, primed page or not.
    pageFirst.clearObject(ORDER, 'o1');
    expect(await pageFirst.object(ORDER, 'o1')).toEqual({ _id: 'o1', version: 6 });
    const cleared = make();
    await cleared.page(ORDER, open, 1, 0);
    cleared.clearObject(ORDER, 'o1');
    expect(await cleared.object(ORDER, 'o1')).toEqual({ _id: 'o1', version: 8 });
    cleared.primeObject(ORDER, { _id: 'o1', version: 0 });
    expect(await cleared.object(ORDER, 'o1')).toEqual({ _id: 'o1', version: 0 });
  });

  it('should ask once for identical metadata and separately for another category', async () => {
    const { client, loaders } = setup({});
    const [a, b, c] = await Promise.all([
      loaders.metadata('m1', 'none'),
      loaders.metadata('m1', 'none'),
      loaders.metadata('m1', 'other'),
    ]);
    expect(a).toEqual({ objectId: 'm1', category: 'none' });
    expect(b).toBe(a);
    expect(c).toEqual({ objectId: 'm1', category: 'other' });
    expect(client.calls).toEqual([
      ['getMetadata', ['m1', 'none']],
      ['getMetadata', ['m1', 'other']],
    ]);
  });
});

describe('find()', () => {
  const open = [{ fieldName: 'status', operator: 'matches', value: 'open' }];

  it('should read the first match with one getObject, and ask once per request for the same filter', async () => {
    const { client, loaders } = setup({
      [ORDER]: [order('o1', { status: 'closed' }), order('o2'), order('o3')],
    });
    const reordered = [{ value: 'open', operator: 'matches', fieldName: 'status' }];
    const [a, b] = await Promise.all([loaders.find(ORDER, open), loaders.find(ORDER, reordered)]);
    expect(a).toEqual(order('o2'));
    expect(b).toBe(a);
    expect(await loaders.find(ORDER, open)).toBe(a);
    expect(await loaders.find(ORDER, byIds('nothing'))).toBeNull();
    expect(await loaders.find(CUSTOMER, open)).toBeNull();
    expect(client.calls).toEqual([
      ['getObject', [ORDER, open]],
      ['getObject', [ORDER, byIds('nothing')]],
      ['getObject', [CUSTOMER, open]],
    ]);
  });

  it('should ask the upstream again after a write cleared an object of that type', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1')] });
    expect(await loaders.find(ORDER, open)).toEqual(order('o1'));
    await client.update(credentials, ORDER, 'o1', { status: 'closed' });
    loaders.clearObject(ORDER, 'o1');
    expect(await loaders.find(ORDER, open)).toBeNull();
    expect(client.calls.map(([operation]) => operation)).toEqual(['getObject', 'update', 'getObject']);
  });
});

describe('metadata() under the request cap', () => {
  const ids = Array.from({ length: 20 }, (_, i) => `m${i}`);
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('should keep at most the cap of metadata calls in flight and share one call per duplicate', async () => {
    const { client, loaders } = setup({}, { exactConcurrency: 3 }, { intercept: tick });
    const found = await Promise.all([...ids, ...ids].map((id) => loaders.metadata(id, 'none')));
    expect(found).toEqual([...ids, ...ids].map((objectId) => ({ objectId, category: 'none' })));
    expect(client.calls).toEqual(ids.map((id) => ['getMetadata', [id, 'none']]));
    expect(client.maxInFlight).toBe(3);
  });

  it('should share the cap with the single object reads of the same request', async () => {
    const { client, loaders } = setup(
      { [ORDER]: ids.map((id) => order(id)) },
      { matchesMode: 'exact', exactConcurrency: 2 },
      { intercept: tick },
    );
    await Promise.all(ids.flatMap((id) => [loaders.object(ORDER, id), loaders.metadata(id, 'none')]));
    expect(client.calls).toHaveLength(40);
    expect(client.maxInFlight).toBe(2);
  });

  it('should fail only the metadata call that failed and still run the queued ones', async () => {
    const failure = new UpstreamError('timeout', 'deadline', { operation: 'getMetadata' });
    const { client, loaders } = setup(
      {},
      { exactConcurrency: 1 },
      {
        intercept: async (call) => {
          await tick();
          if (JSON.stringify(call).includes('"m0"')) throw failure;
        },
      },
    );
    const settled = await Promise.allSettled(ids.slice(0, 3).map((id) => loaders.metadata(id, 'none')));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(client.calls).toHaveLength(3);
  });
});

describe('clearObject() and primeObject()', () => {
  it('should read the object and its pages from upstream again after clearObject', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1')] });
    expect(await loaders.object(ORDER, 'o1')).toEqual(order('o1'));
    await loaders.page(ORDER, [], 10, 0);
    await client.update(credentials, ORDER, 'o1', { status: 'closed' });
    loaders.clearObject(ORDER, 'o1');
    expect(await loaders.object(ORDER, 'o1')).toEqual(order('o1', { status: 'closed' }));
    expect((await loaders.page(ORDER, [], 10, 0)).records).toEqual([order('o1', { status: 'closed' })]);
    expect(client.calls.map(([operation]) => operation)).toEqual([
      'getAll',
      'getAll',
      'update',
      'getAll',
      'getAll',
    ]);
  });

  it('should answer a primed record without calling upstream, replacing what was cached', async () => {
    const { client, loaders } = setup({ [ORDER]: [order('o1')] });
    await loaders.object(ORDER, 'o1');
    loaders.primeObject(ORDER, order('o1', { status: 'paid' }));
    loaders.primeObject(ORDER, order('o9'));
    expect(await loaders.object(ORDER, 'o1')).toEqual(order('o1', { status: 'paid' }));
    expect(await loaders.object(ORDER, 'o9')).toEqual(order('o9'));
    expect(client.calls).toHaveLength(1);
  });
});

describe('object() on untrusted ids (property)', () => {
  const tricky = fc.constantFrom(...'ab1.|()+*?[]{}^$\\-&~# \t\n/'.split(''), 'é', '😀', '\u2028', '\ud800');
  // The empty id is refused before any read (its own test above); every other id is read.
  const id = fc
    .oneof(fc.string({ unit: tricky, maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }))
    .filter((value) => value !== '');

  it('should answer exactly the record with that _id, or null, for every id', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ id, present: fc.boolean() }), { selector: (e) => e.id, maxLength: 12 }),
        fc.array(id, { maxLength: 6 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 40 }),
        async (entries, decoys, maxBatchSize, maxCriterionLength) => {
          const wanted = new Set(entries.map((e) => e.id));
          const stored = [
            ...entries.filter((e) => e.present).map((e) => ({ _id: e.id, mark: `record of ${e.id}` })),
            ...decoys.filter((d) => !wanted.has(d)).map((d) => ({ _id: d, mark: 'decoy' })),
          ];
          const { loaders } = setup({ [ORDER]: stored }, { maxBatchSize, maxCriterionLength });
          const found = await Promise.all(entries.map((e) => loaders.object(ORDER, e.id)));
          expect(found).toEqual(
            entries.map((e) => (e.present ? { _id: e.id, mark: `record of ${e.id}` } : null)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
