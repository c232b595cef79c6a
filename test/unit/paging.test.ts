import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cursorTag,
  decodeCursor,
  encodeCursor,
  parsePageArgs,
  mostPagesFor,
  planPages,
  readRange,
  resolveBackward,
  verifyCursors,
} from '../../src/objects/paging.ts';
import { toPageStart } from '../../src/upstream/dialect/pages/page-start.ts';
import { parsePaging } from '../../emulator/operations/paging.ts';

const limits = { defaultPageSize: 20, maxPageSize: 100 };

describe('planPages', () => {
  it('should cover every window with at most two upstream pages, and over-fetch at most 2x', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 1, max: 100 }), (offset, limit) => {
        const pages = planPages(offset, limit, 1000);
        expect(pages.length).toBeLessThanOrEqual(2);
        const covered = new Set<number>();
        for (const p of pages) for (let i = 0; i < p.pageSize; i++) covered.add(p.pageIndex * p.pageSize + i);
        for (let i = offset; i < offset + limit; i++) expect(covered.has(i)).toBe(true);
        expect(covered.size).toBeLessThanOrEqual(2 * limit);
      }),
    );
  });

  it('should use one page when the window aligns with its size', () => {
    expect(planPages(40, 20, 1000)).toEqual([{ pageSize: 20, pageIndex: 2 }]);
  });

  it('should split a page of 50 past a cap of 25 into the fewest pages, of one size, over-fetching least', () => {
    expect(planPages(0, 50, 25)).toEqual([
      { pageSize: 25, pageIndex: 0 },
      { pageSize: 25, pageIndex: 1 },
    ]);
    // Records 7 … 56: three calls at any size up to 25; pages of 19 read 57 records, pages of 25 would read 75.
    expect(planPages(7, 50, 25)).toEqual([
      { pageSize: 19, pageIndex: 0 },
      { pageSize: 19, pageIndex: 1 },
      { pageSize: 19, pageIndex: 2 },
    ]);
  });

  // The upstream's side is the emulator's own page arithmetic (`parsePaging`), in each UPSTREAM_PAGE_START
  // mode, capped at the same size: what a real upstream serving at most `cap` records a call answers.
  it('should fetch every record of any window exactly once, in calls of at most the cap, in every mode', () => {
    fc.assert(
      fc.property(
        fc.nat(5_000),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 1200 }),
        fc.nat(7_000),
        fc.constantFrom('page0', 'page1', 'offset'),
        (offset, limit, cap, total, mode) => {
          const pages = planPages(offset, limit, cap);
          expect(pages.length).toBeLessThanOrEqual(mostPagesFor(limit, cap));
          expect(pages.length).toBeLessThanOrEqual(Math.ceil(limit / Math.min(cap, limit)) + 1);
          const fetched = new Map<number, number>();
          for (const page of pages) {
            expect(page.pageSize).toBeLessThanOrEqual(cap);
            const pageStart = toPageStart(mode, page.pageIndex, page.pageSize);
            const window = parsePaging(String(page.pageSize), String(pageStart), mode, cap);
            if (typeof window === 'string') throw new Error(window);
            // Records the upstream answers, at the positions the gateway places them (read-page.ts).
            const answered = Math.max(0, Math.min(window.limit, total - window.offset));
            for (let j = 0; j < answered; j++) {
              expect(page.pageIndex * page.pageSize + j).toBe(window.offset + j);
              fetched.set(window.offset + j, (fetched.get(window.offset + j) ?? 0) + 1);
            }
          }
          for (const count of fetched.values()) expect(count).toBe(1);
          const end = Math.min(offset + limit, total);
          for (let at = offset; at < end; at++) expect(fetched.get(at)).toBe(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('cursors', () => {
  it('should round-trip every offset and record id', () => {
    fc.assert(
      fc.property(fc.nat(999_999_999), fc.option(fc.string({ maxLength: 200 })), (n, id) => {
        const mark = decodeCursor(encodeCursor(n, id ?? undefined), 'after');
        expect(mark.offset).toBe(n);
        expect(mark.tag).toBe(id === null ? null : cursorTag(id));
      }),
    );
  });

  it('should refuse any text the gateway did not issue with BAD_USER_INPUT', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const mark = decodeCursor(text, 'after');
          const again = Buffer.from(text, 'base64url').toString('utf8');
          expect(again).toBe(`o:${mark.offset}${mark.tag === null ? '' : `:${mark.tag}`}`);
        } catch (error) {
          expect((error as { extensions: { code: string } }).extensions.code).toBe('BAD_USER_INPUT');
        }
      }),
    );
  });
});

describe('cursor checks', () => {
  const ids = Array.from({ length: 30 }, (_, i) => `id-${i}`);
  const recordAt = (list: string[]) => (offset: number) =>
    list[offset] === undefined ? undefined : { _id: list[offset] };
  const codeOf = (run: () => void): string | undefined => {
    try {
      run();
      return undefined;
    } catch (error) {
      return (error as { extensions: { code: string; argumentName: string } }).extensions.code;
    }
  };

  it("should read the after cursor's record with the window, and nothing past a far before cursor", () => {
    const request = parsePageArgs({ first: 5, after: encodeCursor(9, ids[9]) }, limits);
    expect(readRange(request, { offset: 10, limit: 5 })).toMatchObject({ offset: 9, limit: 6 });
    const far = parsePageArgs({ first: 2, before: encodeCursor(25, ids[25]) }, limits);
    expect(readRange(far, { offset: 0, limit: 2 })).toEqual({ offset: 0, limit: 2, checks: [] });
    const back = parsePageArgs({ last: 3, before: encodeCursor(12, ids[12]) }, limits);
    expect(readRange(back, { offset: 9, limit: 3 })).toMatchObject({ offset: 9, limit: 4 });
  });

  it('should pass while the list stands and refuse once a record before the cursor moved', () => {
    const request = parsePageArgs({ first: 5, after: encodeCursor(9, ids[9]) }, limits);
    const range = readRange(request, { offset: 10, limit: 5 });
    expect(
      codeOf(() => {
        verifyCursors(range, recordAt(ids));
      }),
    ).toBeUndefined();
    // A record of the first page updated by another writer moves to the end of the natural order.
    const moved = [...ids.slice(0, 3), ...ids.slice(4), ids[3] ?? ''];
    expect(
      codeOf(() => {
        verifyCursors(range, recordAt(moved));
      }),
    ).toBe('STALE_CURSOR');
    // Removed records: the cursor's offset is past the end.
    expect(
      codeOf(() => {
        verifyCursors(range, recordAt(ids.slice(0, 5)));
      }),
    ).toBe('STALE_CURSOR');
  });

  it('should not check a cursor without a tag (issued before tags)', () => {
    const request = parsePageArgs({ first: 5, after: encodeCursor(9) }, limits);
    expect(readRange(request, { offset: 10, limit: 5 })).toEqual({ offset: 10, limit: 5, checks: [] });
  });
});

describe('parsePageArgs', () => {
  it('should default to the first page of the default size', () => {
    expect(parsePageArgs({}, limits)).toMatchObject({ direction: 'forward', offset: 0, limit: 20 });
  });

  it('should start after the cursor and stop before "before"', () => {
    expect(
      parsePageArgs({ first: 10, after: encodeCursor(4), before: encodeCursor(9) }, limits),
    ).toMatchObject({
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
