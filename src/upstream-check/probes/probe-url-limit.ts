/**
 * The longest request the upstream takes (docs/design.md, size limits; `UPSTREAM_MAX_URL_BYTES`): a bounded
 * binary search over getAll requests shaped as the gateway's own longest ones, batched id lookups (`_id`
 * matching an alternation of ids, here made-up ids that match nothing), each checked by the pattern guard.
 */
import { HEADER_ALLOWANCE_BYTES } from '../../upstream/client/request-checks.ts';
import { alternationOf } from '../../upstream/pattern-guard/regex-escape.ts';
import type { CheckContext } from '../check-context.ts';
import { readPageAnswer } from './probe-first-page.ts';

/** The search stops when it knows the limit this closely, in bytes. */
const RESOLUTION_BYTES = 64;
/** At most this many requests. */
const MAX_STEPS = 12;

/** `count` made-up ids no upstream assigns (`z` and `k` keep them from looking like hexadecimal ObjectIds). */
function madeUpIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `zcheck${i.toString(36).padStart(10, '0')}`);
}

/** Bytes one more made-up id adds to the URL: its 16 characters and `|` as `%7C`. */
const BYTES_PER_ID = 19;

interface Attempt {
  count: number;
  length: number;
  served: boolean;
  why: string;
  /** The upstream answered a refusal (`status: error`, an HTTP error), not something unreadable. */
  refused: boolean;
}

/**
 * Made-up ids per criterion: each alternation stays under the gateway's own longest pattern (4000
 * characters), so a long request is several `_id` criteria (combined with AND), as a filter of several
 * long `in` conditions is, and an upstream's limit on one pattern is not mistaken for its URL limit.
 */
const IDS_PER_CRITERION = 150;

/** Sends a getAll looking up `count` made-up ids; `undefined` when the guard refuses a pattern. */
async function tryIds(
  context: CheckContext,
  objectName: string,
  count: number,
): Promise<Attempt | undefined> {
  const ids = madeUpIds(count);
  const criteria = [];
  for (let at = 0; at < ids.length; at += IDS_PER_CRITERION) {
    const pattern = alternationOf(ids.slice(at, at + IDS_PER_CRITERION));
    const verdict = await context.guard.check(pattern);
    if (!verdict.ok) return undefined;
    criteria.push({ fieldName: '_id', operator: 'matches', value: pattern });
  }
  const filterCommand = JSON.stringify({ criteria });
  const read = await context.raw.read('getAll', context.credentials, '/studio/jsonp/getAll', {
    objectName,
    filterCommand,
    pageSize: String(count),
    pageStart: String(context.learnt.firstPageStart),
  });
  const answer = readPageAnswer(read);
  return {
    count,
    length: read.targetBytes,
    served: answer.ok,
    why: answer.ok ? '' : answer.why,
    refused: !answer.ok && answer.refused,
  };
}

/**
 * Whether the upstream refuses a lookup of two ids its records hold, batched as the gateway batches reads by
 * id and of references (one `_id` criterion, the ids' grouped alternation): an upstream that turns an `_id`
 * criterion into an ObjectId (`new ObjectId(value)`) refuses every such batch. The reason, or `undefined`.
 */
async function refusesRealBatch(context: CheckContext, objectName: string): Promise<string | undefined> {
  const ids = context.learnt.sample.slice(0, 2).map((record) => record._id);
  if (ids.length < 2) return undefined;
  const pattern = `(?:${alternationOf(ids)})`;
  if (!(await context.guard.check(pattern)).ok) return undefined;
  const read = await context.raw.read('getAll', context.credentials, '/studio/jsonp/getAll', {
    objectName,
    filterCommand: JSON.stringify({ criteria: [{ fieldName: '_id', operator: 'matches', value: pattern }] }),
    pageSize: '2',
    pageStart: String(context.learnt.firstPageStart),
  });
  const answer = readPageAnswer(read);
  return !answer.ok && answer.refused ? answer.why : undefined;
}

/** Runs the search (at most {@link MAX_STEPS} reads). */
export async function probeUrlLimit(context: CheckContext, objectName: string): Promise<void> {
  const topic = 'request-line limit';
  const { config } = context;
  const current = config.upstreamRequestLimits.maxUrlBytes;
  const overhead = context.raw.studioOrigin.length + HEADER_ALLOWANCE_BYTES;
  const small = await tryIds(context, objectName, 2);
  if (small?.served !== true) {
    const refusal = small?.refused === true ? await refusesRealBatch(context, objectName) : undefined;
    if (refusal !== undefined) {
      context.report({
        topic,
        verdict: 'cannot-serve',
        detail: `a lookup of two of its own records' ids in one _id criterion, batched as the gateway reads by id and references, was refused (${refusal}): every batched read would fail`,
      });
      return;
    }
    context.report({
      topic,
      verdict: 'cannot-tell',
      detail: `a batched id lookup failed: ${small?.why ?? 'not sent'}`,
    });
    return;
  }
  // The longest target the gateway may send under its current UPSTREAM_MAX_URL_BYTES: served, nothing to change.
  const most = Math.max(3, 2 + Math.floor((current - overhead - small.length) / BYTES_PER_ID));
  const large = await tryIds(context, objectName, most);
  if (large === undefined || large.served) {
    const length = large?.length ?? small.length;
    context.report({
      topic,
      verdict: large === undefined ? 'cannot-tell' : 'as-assumed',
      detail:
        large === undefined
          ? `a request of ${length} bytes was the longest the pattern guard let through`
          : `serves a ${length}-byte request target, the longest the gateway sends under UPSTREAM_MAX_URL_BYTES=${current}`,
      ...(large === undefined ? {} : { settings: { UPSTREAM_MAX_URL_BYTES: String(current) } }),
    });
    return;
  }
  let good = small;
  let bad = large;
  for (let step = 2; step < MAX_STEPS && bad.length - good.length > RESOLUTION_BYTES; step++) {
    const attempt = await tryIds(context, objectName, Math.floor((good.count + bad.count) / 2));
    if (attempt === undefined) break;
    if (attempt.served) good = attempt;
    else bad = attempt;
  }
  const limit = good.length + overhead;
  const verdict = limit >= current ? 'as-assumed' : limit < 1024 ? 'cannot-serve' : 'differs';
  context.report({
    topic,
    verdict,
    detail: `serves request targets of ${good.length} bytes, refuses ${bad.length} (${bad.why}); UPSTREAM_MAX_URL_BYTES counts the target, the origin and ${HEADER_ALLOWANCE_BYTES} bytes of headers`,
    settings: { UPSTREAM_MAX_URL_BYTES: String(Math.min(limit, current)) },
  });
}
