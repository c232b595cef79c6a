/** What `pageStart` counts: `UPSTREAM_PAGE_START` of docs/design.md. */
export type PageStartMode = 'page0' | 'page1' | 'offset';

/** What a one-based upstream answers for `pageStart=0`: a `status: error`, or an empty page. */
export type PageZero = 'refuse' | 'empty';

/** How getAll writes `totalCount` (`EMULATOR_TOTAL_COUNT`). */
export type TotalCountForm = 'number' | 'string' | 'omit-when-empty';

/** Records per page when the caller sends no `pageSize` (docs/design.md). */
export const DEFAULT_PAGE_SIZE = 20;
/** Larger page sizes are served as this many records, unless `EMULATOR_MAX_PAGE_SIZE` says otherwise. */
export const MAX_PAGE_SIZE = 1000;

/** The slice of the matching records a page covers. */
export interface PageWindow {
  offset: number;
  limit: number;
}

const UNSIGNED = /^\d{1,9}$/;

/**
 * Reads `pageSize` and `pageStart` (missing: 20 and the first page). Answers a plain error message for
 * values that are not whole numbers in range; with `pageZero: 'empty'`, a one-based `pageStart=0` is a
 * window of no records.
 */
export function parsePaging(
  pageSize: string | null,
  pageStart: string | null,
  mode: PageStartMode,
  maxPageSize = MAX_PAGE_SIZE,
  pageZero: PageZero = 'refuse',
): PageWindow | string {
  let limit = Math.min(DEFAULT_PAGE_SIZE, maxPageSize);
  if (pageSize !== null && pageSize !== '') {
    if (!UNSIGNED.test(pageSize) || Number(pageSize) === 0) return 'pageSize must be a positive whole number';
    limit = Math.min(Number(pageSize), maxPageSize);
  }
  const first = mode === 'page1' ? 1 : 0;
  let start = first;
  if (pageStart !== null && pageStart !== '') {
    if (pageZero === 'empty' && UNSIGNED.test(pageStart) && Number(pageStart) === 0)
      return { offset: 0, limit: 0 };
    if (!UNSIGNED.test(pageStart) || Number(pageStart) < first) {
      return `pageStart must be a whole number from ${first}`;
    }
    start = Number(pageStart);
  }
  const offset = mode === 'offset' ? start : (start - first) * limit;
  return { offset, limit };
}
