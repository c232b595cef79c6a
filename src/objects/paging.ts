/**
 * Relay paging over the upstream's fixed pages: any window (offset, limit) is served from the fewest upstream
 * pages, then sliced. Cursors are opaque offsets.
 */
import { badUserInput } from '../errors/graphql-errors.ts';

/** Relay arguments as GraphQL passes them. */
export interface PageArgs {
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}

/**
 * A requested window. Backward windows end at `end` (exclusive; `null` = the total, known only after a
 * read) and never start before `floor` (the record after `after`).
 */
export type PageRequest =
  | { direction: 'forward'; offset: number; limit: number }
  | { direction: 'backward'; end: number | null; floor: number; limit: number };

const CURSOR_PREFIX = 'o:';

/** The cursor of the record at `offset`. */
export function encodeCursor(offset: number): string {
  return Buffer.from(CURSOR_PREFIX + String(offset)).toString('base64url');
}

/** The offset a cursor names; `BAD_USER_INPUT` for anything the gateway did not issue. */
export function decodeCursor(cursor: string, argumentName: string): number {
  const text = cursor.length <= 64 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const digits = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : '';
  if (!/^(0|[1-9]\d{0,8})$/.test(digits)) {
    throw badUserInput(
      `Invalid cursor in "${argumentName}": use a cursor from this connection.`,
      argumentName,
    );
  }
  return Number(digits);
}

/** Validates Relay arguments against the page size limits. */
export function parsePageArgs(
  args: PageArgs,
  limits: { defaultPageSize: number; maxPageSize: number },
): PageRequest {
  const { first, after, last, before } = args;
  const hasFirst = first !== null && first !== undefined;
  const hasLast = last !== null && last !== undefined;
  if (hasFirst && hasLast)
    throw badUserInput('Use "first"/"after" or "last"/"before", not both "first" and "last".');
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value === null || value === undefined) continue;
    if (value < 0) throw badUserInput(`"${name}" must not be negative (received ${value}).`, name);
    if (value > limits.maxPageSize) {
      throw badUserInput(`"${name}" must be at most ${limits.maxPageSize} (received ${value}).`, name);
    }
  }
  const afterOffset = after === null || after === undefined ? null : decodeCursor(after, 'after');
  const beforeOffset = before === null || before === undefined ? null : decodeCursor(before, 'before');
  if (hasLast) {
    const floor = afterOffset === null ? 0 : afterOffset + 1;
    return { direction: 'backward', end: beforeOffset, floor, limit: last };
  }
  const offset = afterOffset === null ? 0 : afterOffset + 1;
  let limit = hasFirst ? first : limits.defaultPageSize;
  if (beforeOffset !== null) limit = Math.max(0, Math.min(limit, beforeOffset - offset));
  return { direction: 'forward', offset, limit };
}

/** One upstream page to fetch: `pageSize` records from zero-based `pageIndex`. */
export interface UpstreamPage {
  pageSize: number;
  pageIndex: number;
}

/** The window `[start, start+limit)` of a backward request once the total is known. */
export function resolveBackward(
  request: Extract<PageRequest, { direction: 'backward' }>,
  totalCount: number,
): { offset: number; limit: number } {
  const end = Math.min(request.end ?? totalCount, totalCount);
  const offset = Math.max(request.floor, end - request.limit);
  return { offset, limit: Math.max(0, end - offset) };
}

/**
 * The upstream pages that cover records `offset … offset+limit-1`, none larger than `maxPageSize`
 * (`UPSTREAM_MAX_PAGE_SIZE`). The upstream's pages are fixed blocks (`pageStart` counts pages of the size
 * asked, docs/design.md), so every page of one plan has the same size: same-sized blocks never overlap and
 * leave no gap, which makes every record of the window come from exactly one call, at the position the
 * cursors name (pages of different sizes would need each size to divide its offset). Of the sizes up to
 * `maxPageSize` and twice the window, the fewest calls win, then the smallest size (the least over-fetch):
 * one page when a size between `limit` and `2*limit` aligns with the window, else two pages of `limit`,
 * else, past the upstream's largest page, about `limit / maxPageSize` calls, at most one more.
 */
export function planPages(offset: number, limit: number, maxPageSize: number): UpstreamPage[] {
  if (limit <= 0) return [{ pageSize: 1, pageIndex: offset }];
  const last = offset + limit - 1;
  const largest = Math.max(1, Math.min(maxPageSize, 2 * limit));
  // Pages of `largest` records need at most one call more than the fewest possible, so at most two
  // passes: for each number of calls, the smallest size that needs no more (for a window of at most
  // `largest` records, the first size from `limit` up that holds it in one page, found in a few steps).
  for (let calls = Math.ceil(limit / largest); ; calls++) {
    for (let size = Math.ceil(limit / calls); size <= largest; size++) {
      const first = Math.floor(offset / size);
      const pages = Math.floor(last / size) - first + 1;
      if (pages <= calls) {
        const plan: UpstreamPage[] = [];
        for (let i = 0; i < pages; i++) plan.push({ pageSize: size, pageIndex: first + i });
        return plan;
      }
    }
  }
}

/**
 * The most pages {@link planPages} plans for a window of `limit` records wherever it starts: what the
 * call estimate counts for a window placed only once the total is known.
 */
export function mostPagesFor(limit: number, maxPageSize: number): number {
  if (limit <= 1) return 1;
  // Pages of min(maxPageSize, limit) records: a window of `limit` touches at most this many of them.
  return Math.ceil((limit - 1) / Math.min(maxPageSize, limit)) + 1;
}
