/**
 * The first raw read of `--object-name`: the JSONP wrapper form and callback echo, the getAll answer's
 * shape, and which `pageStart` the first page has (`0`, or `1` when the upstream refuses `0` or answers it
 * empty while page 1 has records: a one-based upstream has no page 0).
 */
import { isUpstreamError } from '../../errors/upstream-error.ts';
import { readTotalCount } from '../../upstream/dialect/pages/total-count.ts';
import { toAnswerPatterns, toStatusError } from '../../upstream/client/answers/parse-answer.ts';
import { getAllAnswer, isJsonObject } from '../../upstream/client/answers/response-schemas.ts';
import type { Criterion, UpstreamRecord } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import { CheckCannotRun } from './finding.ts';
import type { RawRead } from '../raw-upstream.ts';
import { decodeAsGateway } from './wrapper-form.ts';

/** Records read for the sample; the probes after this one aim at them. */
const SAMPLE_SIZE = 10;

const EMPTY_FILTER = JSON.stringify({ criteria: [] });

/** A raw getAll of `objectName` with the gateway's empty filter, or `criteria` (already guarded). */
export function rawGetAll(
  context: Pick<CheckContext, 'raw' | 'credentials'>,
  objectName: string,
  paging: { pageSize?: number; pageStart?: number },
  criteria?: readonly Criterion[],
): Promise<RawRead> {
  return context.raw.read('getAll', context.credentials, '/studio/jsonp/getAll', {
    objectName,
    filterCommand: criteria === undefined ? EMPTY_FILTER : JSON.stringify({ criteria }),
    pageSize: paging.pageSize === undefined ? undefined : String(paging.pageSize),
    pageStart: paging.pageStart === undefined ? undefined : String(paging.pageStart),
  });
}

/** How an answer wrote its `totalCount` (all three read by the gateway: `dialect/pages/total-count.ts`). */
export type TotalCountForm = 'number' | 'text' | 'absent';

/** A raw getAll answer checked as the gateway checks it: records and total, or what was wrong. */
export type PageAnswer =
  | { ok: true; records: UpstreamRecord[]; totalCount: number; totalCountForm: TotalCountForm }
  | { ok: false; why: string; refused: boolean; message?: string };

function formOf(value: unknown): TotalCountForm {
  if (value === undefined) return 'absent';
  return typeof value === 'string' ? 'text' : 'number';
}

/** Reads a raw getAll answer as the gateway would. */
export function readPageAnswer(read: RawRead): PageAnswer {
  if (!read.outcome.ok) {
    const { error } = read.outcome;
    return {
      ok: false,
      why: error.httpStatus === undefined ? error.detail : `HTTP ${error.httpStatus}`,
      // An HTTP error status is a refusal too (a Java service may answer 500 to a page it cannot read).
      refused: error.httpStatus !== undefined,
    };
  }
  // An answer in another callback name is the callback-echo row's finding: read past it, so that the
  // probes of paging, sizes and limits still answer on their own.
  const strict = decodeAsGateway(read.outcome.text, read.callback);
  const decoded = !strict.ok && strict.otherCallback ? decodeAsGateway(read.outcome.text, undefined) : strict;
  if (!decoded.ok) return { ok: false, why: `answer not readable (${decoded.form})`, refused: false };
  if (isJsonObject(decoded.value) && decoded.value.status === 'error') {
    // The whole message is kept for reading it (a pattern that matches its end must see its end); the
    // report shows its start.
    const message = typeof decoded.value.message === 'string' ? decoded.value.message : '';
    const shown = message.slice(0, 120);
    return { ok: false, why: `status: error ${JSON.stringify(shown)}`, refused: true, message };
  }
  const answer = getAllAnswer.safeParse(decoded.value);
  if (!answer.success) {
    const at = answer.error.issues[0]?.path.map(String).join('.') ?? '';
    return { ok: false, why: `not the read answer shape (at ${at === '' ? '(root)' : at})`, refused: false };
  }
  const records = answer.data.data;
  try {
    const totalCount = readTotalCount('getAll', answer.data, records.length);
    return { ok: true, records, totalCount, totalCountForm: formOf(answer.data.totalCount) };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    return { ok: false, why: error.detail, refused: false };
  }
}

/** A `status: error` message read as the gateway reads it, with the patterns the check has so far. */
function statusErrorOf(context: Pick<CheckContext, 'config' | 'credentials' | 'learnt'>, message: string) {
  const { config } = context;
  return toStatusError(message, undefined, {
    operation: 'getAll',
    patterns: toAnswerPatterns({
      auth: config.authErrorPattern,
      forbidden: config.forbiddenErrorPattern,
      callerInput: context.learnt.callerErrorPattern ?? config.callerErrorPattern,
    }),
    secrets: [context.credentials.apiToken],
  });
}

/**
 * Why a read was refused: for the account (`UPSTREAM_AUTH_ERROR_PATTERN`, `UPSTREAM_FORBIDDEN_ERROR_PATTERN`),
 * for the object name (`UPSTREAM_CALLER_ERROR_PATTERN`, or the one the unknown-name probe learnt), or
 * `undefined` for another reason.
 */
export function refusalOf(
  context: Pick<CheckContext, 'config' | 'credentials' | 'learnt'>,
  message: string,
): 'account' | 'name' | undefined {
  const { kind } = statusErrorOf(context, message);
  if (kind === 'unauthenticated' || kind === 'forbidden') return 'account';
  return kind === 'rejected_input' ? 'name' : undefined;
}

/**
 * A first read refused for the account or for the object name is a mistake in the check's settings or
 * arguments, not a finding: the check cannot run (exit 2).
 */
function refuseToGoOn(context: CheckContext, objectName: string, message: string): void {
  const refusal = refusalOf(context, message);
  const said = JSON.stringify(statusErrorOf(context, message).upstreamMessage ?? '');
  if (refusal === 'account') {
    throw new CheckCannotRun(
      `the upstream refuses the test account's reads (${said}): check APPLICATION_CODE, ORGANIZATION_CODE and the account`,
    );
  }
  if (refusal === 'name') {
    throw new CheckCannotRun(
      `the upstream refuses --object-name ${objectName} (${said}): name an existing type`,
    );
  }
}

/** Runs the first read; records the sample in `context.learnt`. Answers whether reads can go on. */
export async function probeFirstPage(context: CheckContext, objectName: string): Promise<boolean> {
  let read = await rawGetAll(context, objectName, { pageSize: SAMPLE_SIZE, pageStart: 0 });
  let answer = readPageAnswer(read);
  // A one-based upstream may refuse page 0 outright (status: error, or an HTTP error), or answer it empty
  // (with a totalCount that says records exist, or none at all): its first page is 1. Probing page sizes
  // at page 0 there concluded "serves at most 0 records a page".
  if ((!answer.ok && answer.refused) || (answer.ok && answer.records.length === 0)) {
    const second = await rawGetAll(context, objectName, { pageSize: SAMPLE_SIZE, pageStart: 1 });
    const retry = readPageAnswer(second);
    if (retry.ok && (!answer.ok || retry.records.length > 0)) {
      context.learnt.pageZero = answer.ok ? 'empty' : 'refused';
      context.learnt.firstPageStart = 1;
      read = second;
      answer = retry;
    }
  }
  if (!answer.ok && answer.message !== undefined) refuseToGoOn(context, objectName, answer.message);
  if (!read.outcome.ok && read.outcome.error.httpStatus === undefined) {
    const { error } = read.outcome;
    if (error.kind === 'unavailable' || error.kind === 'timeout') {
      throw new CheckCannotRun(`the upstream is unreachable at STUDIO_URL: ${error.detail}`);
    }
  }
  const text = read.outcome.ok ? read.outcome.text : '';
  const decoded = read.outcome.ok ? decodeAsGateway(text, read.callback) : undefined;
  if (decoded === undefined) {
    context.report({
      topic: 'getAll',
      verdict: 'cannot-serve',
      detail: `the first read failed: ${answer.ok ? '' : answer.why}`,
    });
    return false;
  }
  context.report({
    topic: 'JSONP wrapper',
    verdict: decoded.form === 'not JSON or JSONP' ? 'cannot-serve' : 'as-assumed',
    detail: `answers as ${decoded.form}`,
  });
  context.report(
    decoded.ok
      ? { topic: 'callback echo', verdict: 'as-assumed', detail: 'answers in the callback name it was sent' }
      : {
          topic: 'callback echo',
          verdict: 'cannot-serve',
          detail: decoded.otherCallback
            ? 'answers in another callback name than the one sent'
            : 'the answer cannot be decoded',
        },
  );
  if (!answer.ok) {
    context.report({ topic: 'getAll', verdict: 'cannot-serve', detail: answer.why });
    return false;
  }
  context.report({
    topic: 'getAll',
    verdict: 'as-assumed',
    detail: `{status, data: [records with _id], totalCount} (${answer.totalCount} records of ${objectName})`,
  });
  context.learnt.sample = answer.records;
  return true;
}
