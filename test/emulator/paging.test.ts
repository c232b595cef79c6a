import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_SEED_COUNTS, startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { filter, getAll, ids, login } from '../support/emulator-wire.ts';

const ORDER = 'com.example.Order';
const modes = ['page0', 'page1', 'offset'] as const;
const emulators = new Map<(typeof modes)[number], RunningEmulator>();

beforeAll(async () => {
  for (const pageStart of modes) emulators.set(pageStart, await startEmulator({ port: 0, pageStart }));
});
afterAll(() => Promise.all([...emulators.values()].map((e) => e.close())));

/** pageStart of the n-th page (n from 0) of `size` records in each mode. */
const pageStartOf = {
  page0: (n: number) => n,
  page1: (n: number) => n + 1,
  offset: (n: number, size: number) => n * size,
};

it.each(modes)('should serve every object exactly once when walking all pages in %s mode', async (mode) => {
  const emulator = emulators.get(mode)!;
  const demo = await login(emulator);
  const everything = ids(await getAll(emulator, demo, ORDER, { pageSize: '1000' }));
  for (const [size, criteria] of [
    [7, undefined],
    [50, filter(['status', 'PAID|SHIPPED'])],
  ] as const) {
    const seen: string[] = [];
    let totalCount = Infinity;
    for (let n = 0; seen.length < totalCount; n++) {
      const answer = await getAll(emulator, demo, ORDER, {
        pageSize: String(size),
        pageStart: String(pageStartOf[mode](n, size)),
        filterCommand: criteria,
      });
      totalCount = answer.json.totalCount as number;
      const page = ids(answer);
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThanOrEqual(size);
      seen.push(...page);
    }
    expect(new Set(seen).size).toBe(seen.length);
    if (criteria === undefined) expect(seen).toEqual(everything);
    else expect(seen).toEqual(everything.filter((id) => seen.includes(id)));
    expect(seen.length).toBe(totalCount);
  }
  expect(everything).toHaveLength(DEMO_SEED_COUNTS[ORDER]);
});

it.each(modes)('should serve the first page when pageStart is left out, in %s mode', async (mode) => {
  const emulator = emulators.get(mode)!;
  const demo = await login(emulator);
  const first = ids(await getAll(emulator, demo, ORDER, { pageSize: '10' }));
  const explicit = ids(
    await getAll(emulator, demo, ORDER, { pageSize: '10', pageStart: String(pageStartOf[mode](0, 10)) }),
  );
  expect(first).toEqual(explicit);
  expect(first).toHaveLength(10);
});

it('should answer an empty page past the end, with the total count', async () => {
  const emulator = emulators.get('page0')!;
  const answer = await getAll(emulator, await login(emulator), ORDER, { pageSize: '100', pageStart: '3' });
  expect(answer.json).toEqual({ status: 'success', data: [], totalCount: DEMO_SEED_COUNTS[ORDER] });
});

it('should refuse pageStart 0 in page1 mode', async () => {
  const emulator = emulators.get('page1')!;
  const answer = await getAll(emulator, await login(emulator), ORDER, { pageStart: '0' });
  expect(answer.json).toEqual({ status: 'error', message: 'pageStart must be a whole number from 1' });
});

it('should treat pageStart as a record offset in offset mode', async () => {
  const emulator = emulators.get('offset')!;
  const demo = await login(emulator);
  const all = ids(await getAll(emulator, demo, ORDER, { pageSize: '1000' }));
  expect(ids(await getAll(emulator, demo, ORDER, { pageSize: '4', pageStart: '13' }))).toEqual(
    all.slice(13, 17),
  );
});

it('should cap id lookups at EMULATOR_MAX_PAGE_SIZE as it caps pages, counting every match', async () => {
  const emulator = await startEmulator({ port: 0, maxPageSize: 25 });
  try {
    const demo = await login(emulator);
    const forty = ids(await getAll(emulator, demo, ORDER, { pageSize: '40' }));
    expect(forty).toHaveLength(25);
    const everything = ids(await getAll(emulator, demo, ORDER, { pageSize: '20' }));
    const more = ids(await getAll(emulator, demo, ORDER, { pageSize: '20', pageStart: '1' }));
    const wanted = [...everything, ...more];
    const answer = await getAll(emulator, demo, ORDER, {
      pageSize: '40',
      filterCommand: filter(['_id', wanted.join('|')]),
    });
    expect(ids(answer)).toHaveLength(25);
    expect(answer.json.totalCount).toBe(40);
  } finally {
    await emulator.close();
  }
});

it('should answer a one-based pageStart=0 empty with EMULATOR_PAGE_ZERO=empty, and refuse it by default', async () => {
  const empty = await startEmulator({ port: 0, pageStart: 'page1', pageZero: 'empty' });
  try {
    const demo = await login(empty);
    const zero = await getAll(empty, demo, ORDER, { pageSize: '5', pageStart: '0' });
    expect(zero.json).toMatchObject({ status: 'success', data: [], totalCount: DEMO_SEED_COUNTS[ORDER] });
    expect(ids(await getAll(empty, demo, ORDER, { pageSize: '5', pageStart: '1' }))).toHaveLength(5);
  } finally {
    await empty.close();
  }
  const refusing = emulators.get('page1')!;
  const refused = await getAll(refusing, await login(refusing), ORDER, { pageSize: '5', pageStart: '0' });
  expect(refused.json.status).toBe('error');
});

it.each([
  ['number', 250, 0],
  ['string', '250', '0'],
  ['omit-when-empty', 250, undefined],
] as const)('should write totalCount as EMULATOR_TOTAL_COUNT=%s says', async (totalCount, full, none) => {
  const emulator = await startEmulator({ port: 0, totalCount });
  try {
    const demo = await login(emulator);
    expect((await getAll(emulator, demo, ORDER, { pageSize: '3' })).json.totalCount).toEqual(full);
    const empty = await getAll(emulator, demo, ORDER, { filterCommand: filter(['_id', 'no-such-order']) });
    expect(empty.json.data).toEqual([]);
    expect(empty.json.totalCount).toEqual(none);
  } finally {
    await emulator.close();
  }
});
