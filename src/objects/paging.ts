/**
 * Relay paging over the upstream's fixed pages: any window (offset, limit) is served from the fewest upstream
 * pages, then sliced. Cursors are opaque: an offset, and a tag of the id of the record they were issued for.
 * The upstream has no order to ask for (its natural order moves a record another writer updates), so an
 * offset alone would serve a record twice and skip another once the list shifts between two pages; the
 * window read after (or before) a cursor also reads the cursor's own record and refuses the page
 * (`STALE_CURSOR`) when another record stands there.
 */
import { createHash } from 'node:crypto';
import { badUserInput, staleCursor } from '../errors/graphql-errors.ts';

/** Relay arguments as GraphQL passes them. */
export interface PageArgs {
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}

/** What a cursor names: the offset of its record and a tag of that record's id (`null`: a tagless cursor). */
export interface CursorMark {
  offset: number;
  tag: string | null;
}

/**
 * A requested window. Backward windows end at `end` (exclusive; `null` = the total, known only after a
 * read) and never start before `floor` (the record after `after`). `after` and `before` are the cursors
 * the window was asked relative to.
 */
export type PageRequest = (
  | { direction: 'forward'; offset: number; limit: number }
  | { direction: 'backward'; end: number | null; floor: number; limit: number }
) & { after: CursorMark | null; before: CursorMark | null };

const CURSOR_PREFIX = 'o:';

/** The tag of a record id in a cursor: 66 bits of its SHA-256, so a cursor stays short whatever the id. */
export function cursorTag(id: string): string {
  return createHash('sha256').update(id).digest('base64url').slice(0, 11);
}

/** The cursor of the record at `offset` whose id is `id`. */
export function encodeCursor(offset: number, id?: string): string {
  const tag = id === undefined ? '' : `:${cursorTag(id)}`;
  return Buffer.from(CURSOR_PREFIX + String(offset) + tag).toString('base64url');
}

/**
 * What a cursor names; `BAD_USER_INPUT` for anything the gateway did not issue. A cursor without a tag (as
 * issued before tags, during a rolling upgrade) names its offset only and is not checked.
 */
export function decodeCursor(cursor: string, argumentName: string): CursorMark {
  const text = cursor.length <= 64 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^o:(0|[1-9]\d{0,8})(?::([A-Za-z0-9_-]{11}))?$/.exec(text);
  if (match === null) {
    throw badUserInput(
      `Invalid cursor in "${argumentName}": use a cursor from this connection.`,
      argumentName,
    );
  }
  return { offset: Number(match[1]), tag: match[2] ?? null };
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
  const afterMark = after === null || after === undefined ? null : decodeCursor(after, 'after');
  const beforeMark = before === null || before === undefined ? null : decodeCursor(before, 'before');
  const marks = { after: afterMark, before: beforeMark };
  if (hasLast) {
    const floor = afterMark === null ? 0 : afterMark.offset + 1;
    return { direction: 'backward', end: beforeMark?.offset ?? null, floor, limit: last, ...marks };
  }
  const offset = afterMark === null ? 0 : afterMark.offset + 1;
  let limit = hasFirst ? first : limits.defaultPageSize;
  if (beforeMark !== null) limit = Math.max(0, Math.min(limit, beforeMark.offset - offset));
  return { direction: 'forward', offset, limit, ...marks };
}

/** The records to read for a window: the window, and next to it the record of each tagged cursor it touches. */
export interface ReadRange {
  offset: number;
  limit: number;
  /** The cursors whose record must still stand at their offset; each lies inside the range. */
  checks: { argumentName: 'after' | 'before'; mark: CursorMark }[];
}

/**
 * The range to read for `window` of `request`: one record more before it when it starts right after a
 * tagged `after` cursor, one more after it when it ends right at a tagged `before` cursor. A cursor the
 * window does not touch (`first: 2, before:` far away) is not read: it places nothing the window serves.
 */
export function readRange(request: PageRequest, window: { offset: number; limit: number }): ReadRange {
  const range: ReadRange = { ...window, checks: [] };
  const { after, before } = request;
  if (after !== null && after.tag !== null && after.offset === window.offset - 1) {
    range.offset -= 1;
    range.limit += 1;
    range.checks.push({ argumentName: 'after', mark: after });
  }
  if (before !== null && before.tag !== null && before.offset === window.offset + window.limit) {
    range.limit += 1;
    range.checks.push({ argumentName: 'before', mark: before });
  }
  return range;
}

/**
 * Refuses a page read after (or before) a cursor whose record no longer stands at its offset: the list
 * shifted since the cursor was issued, so the window would repeat or skip records. `recordAt` answers the
 * record read at an offset of the range.
 */
export function verifyCursors(
  range: ReadRange,
  recordAt: (offset: number) => { _id: string } | undefined,
): void {
  for (const { argumentName, mark } of range.checks) {
    const record = recordAt(mark.offset);
    if (record === undefined || cursorTag(record._id) !== mark.tag) throw staleCursor(argumentName);
  }
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
