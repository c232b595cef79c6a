/**
 * The run-time check of `page_size` (and of `page_start` on the first page): a getAll page holds exactly the
 * records its own `totalCount` leaves at its offset. An upstream that caps its pages below what the gateway
 * asks (`UPSTREAM_MAX_PAGE_SIZE` set too high) answers a short first page, or, past the first, a page of its
 * own size at its own offset; read as asked, that was a short page with `hasNextPage` and no cursor, records
 * out of reach, or one record twice. Comparing two numbers the answer carries anyway costs nothing.
 */
import { dialectMismatch } from '../assumptions.ts';

/** One getAll answer as the client returns it. */
interface PageAnswer {
  records: readonly unknown[];
  totalCount: number;
}

/**
 * Throws unless `page`, asked as `pageSize` records from zero-based `pageIndex`, holds what its total leaves.
 * `ids`: an id batch (one page from the start, its records matched by `_id`), where only fewer records than
 * both the ids asked and the matches counted is wrong; a page must hold exactly its share.
 *
 * @throws UpstreamError `dialect_mismatch`: `page_start` for an empty first page of a non-empty result,
 *   `page_size` for any other count
 */
export function verifyPageLength(
  operation: string,
  page: PageAnswer,
  pageSize: number,
  pageIndex: number,
  kind: 'page' | 'ids',
): void {
  const got = page.records.length;
  const total = page.totalCount;
  const offset = pageIndex * pageSize;
  const expected = Math.min(pageSize, Math.max(0, total - offset));
  if (got === expected || (kind === 'ids' && got > expected)) return;
  if (got === 0 && pageIndex === 0) {
    throw dialectMismatch(
      operation,
      'page_start',
      `the first page answered no records while its totalCount is ${total}: the upstream does not count ` +
        'pages as UPSTREAM_PAGE_START says (a one-based upstream has no page 0)',
    );
  }
  const asked = kind === 'ids' ? `${pageSize} ids` : `${pageSize} records from offset ${offset}`;
  throw dialectMismatch(
    operation,
    'page_size',
    got < expected
      ? `asked for ${asked}, the answer holds ${got} while its totalCount (${total}) leaves ${expected}: ` +
          'either the upstream serves fewer records a call than asked (UPSTREAM_MAX_PAGE_SIZE: ' +
          '`npm run upstream:check` finds its largest page), or its totalCount counts records its page ' +
          'leaves out (a count built from part of the filter, say without its dotted paths); the answer ' +
          'cannot tell which'
      : `asked for ${asked}, the answer holds ${got} while its totalCount (${total}) leaves ${expected}: ` +
          'the upstream serves pages of another size or at another offset than asked (UPSTREAM_MAX_PAGE_SIZE, ' +
          'UPSTREAM_PAGE_START), or its records changed between its count and its read',
  );
}
