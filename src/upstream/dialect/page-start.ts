/**
 * The conversion of a zero-based page index to the upstream's `pageStart` (docs/design.md, `pageStart`;
 * `UPSTREAM_PAGE_START`): the loaders and the page plan count zero-based pages of one size, whatever the
 * upstream counts.
 */
/** The `pageStart` that asks the upstream for zero-based page `pageIndex` of `pageSize` records. */
export function toPageStart(mode: 'page0' | 'page1' | 'offset', pageIndex: number, pageSize: number): number {
  if (mode === 'page1') return pageIndex + 1;
  if (mode === 'offset') return pageIndex * pageSize;
  return pageIndex;
}
