/**
 * Paging (docs/design.md, `pageStart` and page defaults): what `pageStart` counts, the page size without
 * `pageSize`, the largest page the upstream serves, and whether `totalCount` is the same on every page.
 */
import { cannotTell } from './finding.ts';
import { MAX_IDS_PER_BATCH } from '../../upstream/batching/loaders.ts';
import type { PageStartMode } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import { rawGetAll, readPageAnswer } from './probe-first-page.ts';

const REFERENCE_SIZE = 6;
const SMALL_PAGE = 2;

/** The `pageStart` each mode reads records `[offset, offset + SMALL_PAGE)` at, given the first page's value. */
function expectedOffset(mode: PageStartMode, pageStart: number): number {
  if (mode === 'page1') return (pageStart - 1) * SMALL_PAGE;
  if (mode === 'offset') return pageStart;
  return pageStart * SMALL_PAGE;
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

async function probePageBase(context: CheckContext, objectName: string, totals: number[]): Promise<void> {
  const first = context.learnt.firstPageStart;
  const reference = readPageAnswer(
    await rawGetAll(context, objectName, { pageSize: REFERENCE_SIZE, pageStart: first }),
  );
  const pageStart = first + 1;
  const page = readPageAnswer(await rawGetAll(context, objectName, { pageSize: SMALL_PAGE, pageStart }));
  if (!reference.ok || !page.ok) {
    const why = !reference.ok ? reference.why : page.ok ? '' : page.why;
    context.report(cannotTell('pageStart base', `a page read failed: ${why}`));
    return;
  }
  totals.push(reference.totalCount, page.totalCount);
  const ids = reference.records.map((r) => r._id);
  const got = page.records.map((r) => r._id);
  const modes: PageStartMode[] = first === 1 ? ['page1'] : ['page0', 'page1', 'offset'];
  const fits = modes.filter((mode) => {
    const offset = expectedOffset(mode, pageStart);
    return same(got, ids.slice(offset, offset + SMALL_PAGE));
  });
  const [mode] = fits;
  if (fits.length !== 1 || mode === undefined) {
    context.report({
      topic: 'pageStart base',
      verdict: first === 1 && same(got, ids.slice(1, 1 + SMALL_PAGE)) ? 'cannot-serve' : 'cannot-tell',
      detail:
        first === 1 && same(got, ids.slice(1, 1 + SMALL_PAGE))
          ? 'pageStart is a one-based record offset, which no UPSTREAM_PAGE_START value describes'
          : `pageSize=${SMALL_PAGE}&pageStart=${pageStart} answered records no mode explains (${reference.totalCount} records; too few, or an unstable order)`,
    });
    return;
  }
  context.learnt.pageStart = mode;
  const described = {
    page0: 'a zero-based page index',
    page1: 'a one-based page index',
    offset: 'a record offset',
  }[mode];
  context.report({
    topic: 'pageStart base',
    verdict: mode === context.config.pageStartMode ? 'as-assumed' : 'differs',
    detail: `pageStart is ${described}`,
    settings: { UPSTREAM_PAGE_START: mode },
  });
}

async function probeDefaultPageSize(
  context: CheckContext,
  objectName: string,
  totals: number[],
): Promise<void> {
  const answer = readPageAnswer(await rawGetAll(context, objectName, {}));
  if (!answer.ok) {
    context.report({
      topic: 'default page size',
      verdict: 'as-assumed',
      detail: `refuses a read without pageSize (${answer.why}); the gateway always sends it`,
    });
    return;
  }
  totals.push(answer.totalCount);
  const n = answer.records.length;
  const size = n < answer.totalCount ? `${n} records` : `at least ${n} records (all there are)`;
  context.report({
    topic: 'default page size',
    verdict: 'as-assumed',
    detail: `${size} without pageSize; the gateway always sends pageSize`,
  });
}

async function probeLargestPage(context: CheckContext, objectName: string, totals: number[]): Promise<void> {
  const { config } = context;
  // planPages (src/objects/paging.ts) asks up to twice the window, the window one more than MAX_PAGE_SIZE.
  const largest = Math.max(2 * (config.maxPageSize + 1), MAX_IDS_PER_BATCH);
  const answer = readPageAnswer(
    await rawGetAll(context, objectName, { pageSize: largest, pageStart: context.learnt.firstPageStart }),
  );
  if (!answer.ok) {
    context.report({
      topic: 'largest page size',
      verdict: 'cannot-serve',
      detail: `pageSize=${largest} is refused (${answer.why})`,
    });
    return;
  }
  totals.push(answer.totalCount);
  const n = answer.records.length;
  if (n >= largest) {
    context.report({
      topic: 'largest page size',
      verdict: 'as-assumed',
      detail: `serves ${largest} records, the most the gateway asks for (MAX_PAGE_SIZE=${config.maxPageSize})`,
    });
    return;
  }
  if (n >= answer.totalCount) {
    context.report(
      cannotTell('largest page size', `only ${n} records to read; the gateway asks up to ${largest} at once`),
    );
    return;
  }
  if (n < MAX_IDS_PER_BATCH) {
    context.report({
      topic: 'largest page size',
      verdict: 'cannot-serve',
      detail: `serves at most ${n} records a page; the gateway reads ${MAX_IDS_PER_BATCH} ids in one page`,
    });
    return;
  }
  const maxPageSize = Math.floor(n / 2) - 1;
  context.report({
    topic: 'largest page size',
    verdict: 'differs',
    detail: `serves at most ${n} records a page: MAX_PAGE_SIZE=${maxPageSize} keeps the gateway's pages (up to twice the window) within it`,
    settings: {
      MAX_PAGE_SIZE: String(maxPageSize),
      ...(config.defaultPageSize > maxPageSize ? { DEFAULT_PAGE_SIZE: String(maxPageSize) } : {}),
    },
  });
}

/** Runs the paging probes (5 reads). */
export async function probePaging(context: CheckContext, objectName: string): Promise<void> {
  const totals: number[] = [];
  await probePageBase(context, objectName, totals);
  await probeDefaultPageSize(context, objectName, totals);
  await probeLargestPage(context, objectName, totals);
  if (totals.length < 2) {
    context.report(cannotTell('totalCount', 'too few pages were read'));
    return;
  }
  const consistent = totals.every((t) => t === totals[0]);
  context.report(
    consistent
      ? {
          topic: 'totalCount',
          verdict: 'as-assumed',
          detail: `the same on ${totals.length} pages of different sizes (${totals[0]})`,
        }
      : {
          topic: 'totalCount',
          verdict: 'cannot-serve',
          detail: `differs between pages (${totals.join(', ')}): the gateway's connections count on the total of all matches`,
        },
  );
}
