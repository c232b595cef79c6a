import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  encodeCursor,
  parsePageArgs,
  planPages,
  resolveBackward,
} from '../../src/objects/paging.ts';

const limits = { defaultPageSize: 20, maxPageSize: 100 };

describe('planPages', () => {
  it('should cover every window with at most two upstream pages, and over-fetch at most 2x', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 1, max: 100 }), (offset, limit) => {
        const pages = planPages(offset, limit);
        expect(pages.length).toBeLessThanOrEqual(2);
        const covered = new Set<number>();
        for (const p of pages) for (let i = 0; i < p.pageSize; i++) covered.add(p.pageIndex * p.pageSize + i);
        for (let i = offset; i < offset + limit; i++) expect(covered.has(i)).toBe(true);
        expect(covered.size).toBeLessThanOrEqual(2 * limit);
      }),
    );
  });

  it('should use one page when the window aligns with its size', () => {
    expect(planPages(40, 20)).toEqual([{ pageSize: 20, pageIndex: 2 }]);
  });
});

describe('cursors', () => {
  it('should round-trip every offset', () => {
    fc.assert(fc.property(fc.nat(999_999_999), (n) => decodeCursor(encodeCursor(n), 'after') === n));
  });

  it('should refuse any text the gateway did not issue with BAD_USER_INPUT', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const n = decodeCursor(text, 'after');
          expect(encodeCursor(n)).toBe(text);
        } catch (error) {
          expect((error as { extensions: { code: string } }).extensions.code).toBe('BAD_USER_INPUT');
        }
      }),
    );
  });
});

describe('parsePageArgs', () => {
  it('should default to the first page of the default size', () => {
    expect(parsePageArgs({}, limits)).toEqual({ direction: 'forward', offset: 0, limit: 20 });
  });

  it('should start after the cursor and stop before "before"', () => {
    expect(parsePageArgs({ first: 10, after: encodeCursor(4), before: encodeCursor(9) }, limits)).toEqual({
      direction: 'forward',
      offset: 5,
      limit: 4,
    });
  });

  it('should count last/before back from the end', () => {
    const request = parsePageArgs({ last: 5, before: encodeCursor(12) }, limits);
    expect(request.direction === 'backward' && resolveBackward(request, 30)).toEqual({ offset: 7, limit: 5 });
    const tail = parsePageArgs({ last: 5 }, limits);
    expect(tail.direction === 'backward' && resolveBackward(tail, 3)).toEqual({ offset: 0, limit: 3 });
  });
});
