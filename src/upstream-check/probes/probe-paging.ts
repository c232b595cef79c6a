/**
 * Paging (docs/upstream-contract.md, "Assumptions": `page_start`, `page_size`, `total_count`): what
 * `pageStart` counts (found first, so that the page size is probed on a page that exists), the page size
 * without `pageSize`, the largest page the upstream serves, whether `totalCount` is the same on every page,
 * and the forms it is written in.
 */
import { cannotTell } from './finding.ts';
import { NOTHING } from '../../filters/literal-pattern.ts';
import { MAX_IDS_PER_BATCH } from '../../upstream/batching/loaders.ts';
import type { PageStartMode } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import { rawGetAll, readPageAnswer, type PageAnswer, type TotalCountForm } from './probe-first-page.ts';

const REFERENCE_SIZE = 6;
const SMALL_PAGE = 2;
/** Reads the search for the largest accepted page size may make when the upstream refuses the largest. */
const MAX_SEARCH_READS = 12;

/** What the paging reads saw of `totalCount`. */
interface Totals {
  counts: number[];
  forms: Set<TotalCountForm>;
}

/** Keeps what a successful answer says of its total. */
function note(totals: Totals, answer: PageAnswer): void {
  if (!answer.ok) return;
  totals.counts.push(answer.totalCount);
  totals.forms.add(answer.totalCountForm);
}

/** The `pageStart` each mode reads records `[offset, offset + SMALL_PAGE)` at, given the first page's value. */
function expectedOffset(mode: PageStartMode, pageStart: number): number {
  if (mode === 'page1') return (pageStart - 1) * SMALL_PAGE;
  if (mode === 'offset') return pageStart;
  return pageStart * SMALL_PAGE;
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

async function probePageBase(context: CheckContext, objectName: string, totals: Totals): Promise<void> {
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
  note(totals, reference);
  note(totals, page);
  const ids = reference.records.map((r) => r._id);
  const got = page.records.map((r) => r._id);
  const modes: PageStartMode[] = first === 1 ? ['page1'] : ['page0', 'page1', 'offset'];
  const fits = modes.filter((mode) => {
    const offset = expectedOffset(mode, pageStart);
    return same(got, ids.slice(offset, offset + SMALL_PAGE));
  });
  const [mode] = fits;
  if (fits.length !== 1 || mode === undefined) {
    const oneBasedOffset = first === 1 && same(got, ids.slice(1, 1 + SMALL_PAGE));
    context.report({
      topic: 'pageStart base',
      verdict: oneBasedOffset ? 'cannot-serve' : 'cannot-tell',
      detail: oneBasedOffset
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
  const zero = context.learnt.pageZero;
  const why =
    zero === undefined ? '' : ` (pageStart=0 is ${zero === 'empty' ? 'answered empty' : 'refused'})`;
  context.report({
    topic: 'pageStart base',
    verdict: mode === context.config.pageStartMode ? 'as-assumed' : 'differs',
    detail: `pageStart is ${described}${why}`,
    settings: { UPSTREAM_PAGE_START: mode },
  });
}

async function probeDefaultPageSize(
  context: CheckContext,
  objectName: string,
  totals: Totals,
): Promise<void> {
  const answer = readPageAnswer(
    await rawGetAll(context, objectName, context.learnt.firstPageStart === 1 ? { pageStart: 1 } : {}),
  );
  if (!answer.ok) {
    context.report({
      topic: 'default page size',
      verdict: 'as-assumed',
      detail: `refuses a read without pageSize (${answer.why}); the gateway always sends it`,
    });
    return;
  }
  note(totals, answer);
  const n = answer.records.length;
  const size = n < answer.totalCount ? `${n} records` : `at least ${n} records (all there are)`;
  context.report({
    topic: 'default page size',
    verdict: 'as-assumed',
    detail: `${size} without pageSize; the gateway always sends pageSize`,
  });
}

/**
 * The largest `pageSize` the upstream answers at all, below `refused` (which it refused), by halving:
 * `undefined` when it refuses every size tried.
 */
async function largestAccepted(
  context: CheckContext,
  objectName: string,
  refused: number,
): Promise<{ size: number; answer: Extract<PageAnswer, { ok: true }> } | undefined> {
  let low = 0;
  let high = refused;
  let best: { size: number; answer: Extract<PageAnswer, { ok: true }> } | undefined;
  for (let reads = 0; high - low > 1 && reads < MAX_SEARCH_READS; reads++) {
    const size = Math.floor((low + high) / 2);
    const answer = readPageAnswer(
      await rawGetAll(context, objectName, { pageSize: size, pageStart: context.learnt.firstPageStart }),
    );
    if (answer.ok) {
      low = size;
      best = { size, answer };
    } else {
      high = size;
    }
  }
  return best;
}

async function probeLargestPage(context: CheckContext, objectName: string, totals: Totals): Promise<void> {
  const { config } = context;
  const topic = 'largest page size';
  // The most one call of the gateway asks for: pages of up to twice the window (planPages,
  // src/objects/paging.ts) and id batches, both within UPSTREAM_MAX_PAGE_SIZE (larger ones are split).
  const largest = Math.min(config.upstreamMaxPageSize, Math.max(2 * config.maxPageSize, MAX_IDS_PER_BATCH));
  const pageStart = context.learnt.firstPageStart;
  let asked = largest;
  let answer = readPageAnswer(await rawGetAll(context, objectName, { pageSize: largest, pageStart }));
  if (!answer.ok) {
    const found = await largestAccepted(context, objectName, largest);
    if (found === undefined) {
      context.report({ topic, verdict: 'cannot-serve', detail: `every pageSize is refused (${answer.why})` });
      return;
    }
    asked = found.size;
    answer = found.answer;
  }
  note(totals, answer);
  const n = answer.records.length;
  if (n >= largest) {
    context.report({
      topic,
      verdict: 'as-assumed',
      detail: `serves ${largest} records a call, the most the gateway asks for (UPSTREAM_MAX_PAGE_SIZE=${config.upstreamMaxPageSize}, MAX_PAGE_SIZE=${config.maxPageSize})`,
      settings: { UPSTREAM_MAX_PAGE_SIZE: String(config.upstreamMaxPageSize) },
    });
    return;
  }
  // Served whole but refused above: the size it accepts is its largest page.
  const cap = n >= answer.totalCount ? (asked < largest ? asked : undefined) : n;
  if (cap === undefined) {
    context.report(
      cannotTell(topic, `only ${n} records to read; the gateway asks up to ${largest} in one call`),
    );
    return;
  }
  if (cap === 0) {
    context.report(
      cannotTell(
        topic,
        `pageStart=${pageStart} answered no records while its totalCount is ${answer.totalCount}`,
      ),
    );
    return;
  }
  const refusedAbove = asked < largest ? ` (pageSize=${largest} is refused)` : '';
  context.report({
    topic,
    verdict: 'differs',
    detail: `serves at most ${cap} records a call${refusedAbove}; the gateway splits larger pages and id batches into calls of that size`,
    settings: { UPSTREAM_MAX_PAGE_SIZE: String(cap) },
  });
}

/** One read that matches nothing: how `totalCount` is written when there is nothing to count. */
async function probeEmptyAnswer(
  context: CheckContext,
  objectName: string,
): Promise<PageAnswer | { ok: false; why: string; refused: false; notSent: true }> {
  const verdict = await context.guard.check(NOTHING);
  if (!verdict.ok) return { ok: false, why: 'not sent', refused: false, notSent: true };
  const criteria = [{ fieldName: '_id', operator: 'matches' as const, value: NOTHING }];
  return readPageAnswer(
    await rawGetAll(context, objectName, { pageSize: 1, pageStart: context.learnt.firstPageStart }, criteria),
  );
}

const FORM_NOTES: Record<TotalCountForm, string> = {
  number: 'a number',
  text: 'text ("31"), which the gateway reads as the number',
  absent: 'left out, which the gateway reads as 0',
};

/** The forms of `totalCount` seen (`total_count`): each is read; a form the gateway cannot read is named. */
async function probeTotalCountForms(
  context: CheckContext,
  objectName: string,
  totals: Totals,
): Promise<void> {
  const empty = await probeEmptyAnswer(context, objectName);
  const topic = 'totalCount form';
  if (!empty.ok && !('notSent' in empty) && !empty.refused) {
    context.report({
      topic,
      verdict: 'cannot-serve',
      detail: `an answer with no records: ${empty.why}; every empty search would fail`,
    });
    return;
  }
  const pages = [...totals.forms].map((form) => FORM_NOTES[form]).join(' and ');
  const whenEmpty = empty.ok ? `; with no records, ${FORM_NOTES[empty.totalCountForm]}` : '';
  context.report({
    topic,
    verdict: 'as-assumed',
    detail: `${pages === '' ? 'not seen' : `written as ${pages}`}${whenEmpty}`,
  });
}

/** Runs the paging probes (6 reads; more only to find the largest size an upstream that refuses large pages takes). */
export async function probePaging(context: CheckContext, objectName: string): Promise<void> {
  const totals: Totals = { counts: [], forms: new Set() };
  await probePageBase(context, objectName, totals);
  await probeDefaultPageSize(context, objectName, totals);
  await probeLargestPage(context, objectName, totals);
  await probeTotalCountForms(context, objectName, totals);
  const { counts } = totals;
  if (counts.length < 2) {
    context.report(cannotTell('totalCount', 'too few pages were read'));
    return;
  }
  const consistent = counts.every((t) => t === counts[0]);
  context.report(
    consistent
      ? {
          topic: 'totalCount',
          verdict: 'as-assumed',
          detail: `the same on ${counts.length} pages of different sizes (${counts[0]})`,
        }
      : {
          topic: 'totalCount',
          verdict: 'cannot-serve',
          detail: `differs between pages (${counts.join(', ')}): the gateway's connections count on the total of all matches`,
        },
  );
}
