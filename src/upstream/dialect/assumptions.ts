/**
 * Every assumption the gateway makes about the upstream where its interface document is silent or loose,
 * written once. Each has a setting that fixes it, a probe in `npm run upstream:check` and, where it costs next
 * to nothing, a run-time verification; docs/upstream-contract.md ("Assumptions") has one row per entry
 * (`test/docs/upstream-contract.test.ts` holds the two together). When an answer contradicts one, the caller
 * gets `UPSTREAM_DIALECT_MISMATCH` naming the assumption and its setting ({@link dialectMismatch}): a wrong
 * setting, not ill health, so it never counts against the breaker.
 */
import {
  UpstreamError,
  type AppliedWrite,
  type WrittenFieldDifference,
} from '../../errors/upstream-error.ts';

/** An assumption: the setting that changes it, and what the gateway assumes by default. */
export interface UpstreamAssumption {
  /** The setting an operator changes when the upstream speaks otherwise (`–` when none: a dialect we cannot serve). */
  setting: string;
  /** The default, as a sentence. */
  assumes: string;
}

/** The assumptions, by stable name (`extensions.assumption`). */
export const UPSTREAM_ASSUMPTIONS = {
  answer_charset: {
    setting: 'UPSTREAM_ANSWER_CHARSET',
    assumes: 'answers are decoded by the charset their Content-Type names, this one when it names none',
  },
  request_charset: {
    setting: 'UPSTREAM_REQUEST_CHARSET',
    assumes: 'request bodies declare charset=UTF-8; JSON bodies are ASCII-only (\\u escapes)',
  },
  page_start: {
    setting: 'UPSTREAM_PAGE_START',
    assumes: 'pageStart is a zero-based page index',
  },
  page_size: {
    setting: 'UPSTREAM_MAX_PAGE_SIZE',
    assumes: 'the upstream serves pages and id batches of up to this many records',
  },
  answer_shape: {
    setting: '–',
    assumes:
      'each answer has the shape of the interface document: status, and data as an array of records (getObject too)',
  },
  total_count: {
    setting: '–',
    assumes: 'totalCount is a number or a numeric string; absent only with an empty data',
  },
  matches: {
    setting: 'UPSTREAM_MATCHES',
    assumes: '`matches` matches the whole value as a Java regular expression (String.matches)',
  },
  matches_case: {
    setting: 'UPSTREAM_MATCHES_CASE',
    assumes: '`matches` is case-sensitive',
  },
  filter_answer: {
    setting: '–',
    assumes:
      'every record a filtered read answers satisfies every criterion sent, and a read by id answers only ids asked',
  },
  login_session: {
    setting: '–',
    assumes: 'a login answers a token, or (form login) a session cookie the gateway carries',
  },
  save_id: {
    setting: 'UPSTREAM_SAVE_ID_AT',
    assumes: 'a save answers the saved object id as savedObjectId',
  },
  save_with_id: {
    setting: 'UPSTREAM_SAVE_WITH_ID',
    assumes: 'a save naming an existing _id merges the fields sent into the object',
  },
  update_fields: {
    setting: 'UPSTREAM_UPDATE_FIELDS',
    assumes:
      'update takes the changed fields as one JSON query parameter, data, and answers them in updatedFields',
  },
  stored_as_sent: {
    setting: '–',
    assumes:
      'a save or update stores every field as sent: a read after it shows each by meaning (2.7 as 2.70, a date as its instant)',
  },
  read_after_write: {
    setting: 'UPSTREAM_WRITE_READ_BACK_MS',
    assumes: 'a read after a write shows it within this many milliseconds (reads from a replica lag writes)',
  },
  exact_numbers: {
    setting: '–',
    assumes: 'numbers are read with every digit they were written with (no rounding past 2^53)',
  },
  metadata_key: {
    setting: 'UPSTREAM_METADATA_KEY',
    assumes: 'the metadata answer carries its payload under data',
  },
} as const satisfies Readonly<Record<string, UpstreamAssumption>>;

/** The name of one assumption. */
export type AssumptionName = keyof typeof UPSTREAM_ASSUMPTIONS;

/**
 * The error of an answer that contradicts `name`: `UPSTREAM_DIALECT_MISMATCH`, its detail written for the
 * operator (what came back, never a value that may hold a secret), the assumption and its setting attached.
 * `applied`: the answer proves a write happened (`extensions.applied`), so the caller must not retry it.
 * `criterion`: the filter criterion an answered record does not satisfy (`extensions.criterion`).
 */
export function dialectMismatch(
  operation: string,
  name: AssumptionName,
  detail: string,
  cause?: unknown,
  applied?: AppliedWrite,
  fields?: readonly WrittenFieldDifference[],
  criterion?: { fieldName: string; operator: string },
): UpstreamError {
  const { setting } = UPSTREAM_ASSUMPTIONS[name];
  return new UpstreamError('dialect_mismatch', detail, {
    operation,
    assumption: { name, setting },
    cause,
    applied,
    fields,
    criterion,
  });
}
