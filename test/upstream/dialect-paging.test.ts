/**
 * The paging dialect's two readers: `totalCount` in the forms upstreams write it (`total-count.ts`), and the
 * page-length check that turns a page an upstream cut or moved into a named error (`page-length.ts`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { countsAgainstUpstream } from '../../src/errors/upstream-error.ts';
import { verifyPageLength } from '../../src/upstream/dialect/pages/page-length.ts';
import { createLoaders } from '../../src/upstream/batching/loaders.ts';
import { readTotalCount } from '../../src/upstream/dialect/pages/total-count.ts';

function failure(run: () => unknown): UpstreamError {
  try {
    run();
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const records = (n: number) => Array.from({ length: n }, (_, i) => ({ _id: `r${i}` }));

describe('readTotalCount', () => {
  it('should read a count written as a number or as numeric text alike', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat(5), (count, n) => {
        expect(readTotalCount('getAll', { totalCount: count }, n)).toBe(count);
        expect(readTotalCount('getAll', { totalCount: String(count) }, n)).toBe(count);
      }),
    );
    expect(readTotalCount('getAll', { totalCount: '31.0' }, 1)).toBe(31);
  });

  it('should read a count left out beside no records as 0', () => {
    expect(readTotalCount('getAll', { status: 'success', data: [] }, 0)).toBe(0);
  });

  it.each([
    ['missing beside records', undefined, 2],
    ['negative', -1, 0],
    ['fractional', 1.5, 0],
    ['beyond 2^53', 2 ** 53, 0],
    ['negative text', '-1', 0],
    ['text that is no number', 'many', 0],
    ['null', null, 0],
    ['a boolean', true, 0],
  ])('should call a totalCount %s a dialect mismatch naming the field, never ill health', (_n, value, n) => {
    const answer = value === undefined ? {} : { totalCount: value };
    const error = failure(() => readTotalCount('getAll', answer, n));
    expect(error.kind).toBe('dialect_mismatch');
    expect(error.assumption?.name).toBe('total_count');
    expect(error.detail).toContain('totalCount');
    expect(countsAgainstUpstream(error)).toBe(false);
  });

  it('should not quote the value it could not read', () => {
    expect(failure(() => readTotalCount('getAll', { totalCount: 'tok-SECRET' }, 0)).message).not.toContain(
      'SECRET',
    );
  });
});

describe('verifyPageLength', () => {
  it.each([
    ['a page holding what its totalCount leaves at its offset', 7, 31, 7, 2, 'page'],
    ['the last page, holding the rest', 3, 31, 7, 4, 'page'],
    ['an empty page past the last', 0, 31, 7, 5, 'page'],
    ['an id batch answering fewer records than ids', 15, 15, 40, 0, 'ids'],
    ['an id batch holding more records than it counts matches', 3, 2, 3, 0, 'ids'],
  ] as const)('should accept %s', (_name, length, totalCount, pageSize, pageIndex, kind) => {
    expect(() => {
      verifyPageLength('getAll', { records: records(length), totalCount }, pageSize, pageIndex, kind);
    }).not.toThrow();
  });

  it('should name page_size for a page an upstream capped at 25 cut short', () => {
    const error = failure(() => {
      verifyPageLength('getAll', { records: records(25), totalCount: 31 }, 50, 0, 'page');
    });
    expect(error.kind).toBe('dialect_mismatch');
    expect(error.assumption).toEqual({ name: 'page_size', setting: 'UPSTREAM_MAX_PAGE_SIZE' });
    // A count built from part of the filter looks the same: the message names both, not the first that fits.
    expect(error.message).toMatch(
      /UPSTREAM_MAX_PAGE_SIZE.*or its totalCount counts records its page leaves out/,
    );
  });

  it('should name page_size for a page of another size served at another offset', () => {
    // pageSize 30, page 1 of a cap-25 upstream: records 25 … 30, where the gateway expects record 30 alone.
    const error = failure(() => {
      verifyPageLength('getAll', { records: records(6), totalCount: 31 }, 30, 1, 'page');
    });
    expect(error.assumption?.name).toBe('page_size');
  });

  it('should name page_start for an empty first page of a non-empty result', () => {
    const error = failure(() => {
      verifyPageLength('getAll', { records: [], totalCount: 31 }, 10, 0, 'page');
    });
    expect(error.assumption).toEqual({ name: 'page_start', setting: 'UPSTREAM_PAGE_START' });
  });

  it('should name page_size for an id batch that counts more matches than it holds', () => {
    const error = failure(() => {
      verifyPageLength('getAll', { records: records(25), totalCount: 40 }, 40, 0, 'ids');
    });
    expect(error.assumption?.name).toBe('page_size');
  });
});

describe('verifyPageLength against an upstream capped below the setting (property)', () => {
  it.each(['ids', 'page'] as const)(
    'should accept a first %s answer the cap did not cut, and name the cap on any it cuts: never a silent null',
    (kind) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 200 }),
          fc.nat(500),
          fc.integer({ min: 1, max: 200 }),
          (size, matches, cap) => {
            // An id batch counts the matches among its ids only; a page counts every match.
            const total = kind === 'ids' ? Math.min(matches, size) : matches;
            // The upstream answers at most `cap` of them, and counts them all.
            const answered = Math.min(size, cap, total);
            const verify = () => {
              verifyPageLength('getAll', { records: records(answered), totalCount: total }, size, 0, kind);
            };
            if (answered === Math.min(size, total)) expect(verify).not.toThrow();
            else expect(failure(verify).kind).toBe('dialect_mismatch');
          },
        ),
      );
    },
  );
});

describe('a read by id alone from a one-based upstream read as zero-based', () => {
  it('should name page_start, not answer null for an object that exists', async () => {
    const loaders = createLoaders({
      // Page 0 of a one-based upstream: nothing, while it counts the one match.
      client: {
        getAll: () => Promise.resolve({ records: [], totalCount: 1 }),
        getObject: () => Promise.resolve(null),
        getMetadata: () => Promise.resolve(null),
      },
      credentials: { username: 'demo', apiToken: 't', applicationCode: 'demo', organizationCode: 'acme' },
      matchesMode: 'regex',
      matchesCase: 'sensitive',
      maxIdLength: 100,
    });
    const error = await loaders.object('com.acme.Order', 'o1').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).assumption).toEqual({
      name: 'page_start',
      setting: 'UPSTREAM_PAGE_START',
    });
  });
});
