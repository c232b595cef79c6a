/**
 * zod schemas of the upstream's answers (docs/upstream-contract.md), and the answer types inferred from them.
 * Records and other pass-through objects are checked with guards, not rebuilt, so they reach the caller
 * exactly as `JSON.parse` made them: zod's object parsing copies keys and silently drops an own `__proto__`
 * field.
 */
import { z } from 'zod';
import { isExactNumber } from '../../dialect/exact-json.ts';
import type { UpstreamRecord } from '../wire.ts';

/** A plain JSON object (not an array, not null, not a number kept with its digits: `exact-json.ts`). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isExactNumber(value);
}

/** An upstream record: an object with a string `_id`. */
export function isUpstreamRecord(value: unknown): value is UpstreamRecord {
  return isJsonObject(value) && typeof value._id === 'string';
}

const record = z.custom<UpstreamRecord>(isUpstreamRecord, {
  message: 'expected an object with a string _id',
});
const jsonObject = z.custom<Record<string, unknown>>(isJsonObject, { message: 'expected an object' });
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

/** `status: error`, any operation. `message` is required by the document but tolerated when missing. */
export const errorAnswer = z.object({
  status: z.literal('error'),
  message: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  error_code: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? undefined : String(value))),
});

/** JSON login success. */
export const jsonLoginAnswer = z.object({ status: z.literal('success'), token: z.string().min(1) });

/** Form login success; `userId` tolerated as a number (Java backends), `token` optional. */
export const formLoginAnswer = z.object({
  status: z.literal('success'),
  userId: z.union([z.string(), z.number()]).transform(String),
  username: z.string(),
  token: optionalText,
  message: optionalText,
});

/**
 * getAll success. `totalCount` is read by `readTotalCount` (`dialect/pages/total-count.ts`), which knows the forms
 * upstreams write it in and names the field when it is none of them: a shape error here would be
 * `bad_response`, counted as ill health.
 */
export const getAllAnswer = z.object({
  status: z.literal('success'),
  data: z.array(record),
  totalCount: z.unknown().optional(),
});

/** getObject success: the read shape, `data` holding zero or one record; `totalCount` is not needed. */
export const getObjectAnswer = z.object({ status: z.literal('success'), data: z.array(record) });

/**
 * Metadata success: the answer as decoded, every key kept, so that the payload is found under whichever key
 * `UPSTREAM_METADATA_KEY` names (`dialect/metadata-payload.ts`) and passed through as JSON.
 */
export const metadataAnswer = z.custom<Record<string, unknown> & { status: 'success' }>(
  (value) => isJsonObject(value) && value.status === 'success',
  { message: 'expected {status: "success", …}' },
);

const message = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/**
 * Save success. Where the id is depends on the upstream (`UPSTREAM_SAVE_ID_AT`: `savedObjectId`, `data._id`
 * or `data`), so both are taken as they came and the client reads the id (`dialect/writes/saved-id.ts`): a success
 * without one there is a dialect mismatch of a write that happened, never an unreadable answer.
 */
export const saveAnswer = z.object({
  status: z.literal('success'),
  savedObjectId: z.unknown().optional(),
  data: z.unknown().optional(),
  message,
});

/** Whether every element of `value` (an array) is an upstream record. */
function allRecords(value: unknown[]): boolean {
  for (const element of value) if (!isUpstreamRecord(element)) return false;
  return true;
}

/** Both read answers' guard: a success whose `data` is an array of upstream records. */
function isSuccessWithRecords(value: unknown): boolean {
  return (
    isJsonObject(value) && value.status === 'success' && Array.isArray(value.data) && allRecords(value.data)
  );
}

/**
 * The read answers' shapes checked by hand, without a copy: zod's object and array parsing build a new
 * answer, a new `data` array and a result per record (about 130 bytes per record, on every read). A guard
 * accepts only what its schema accepts; whatever it does not accept goes to the schema, for the same
 * answer or the same shape error. The accepted answer is returned as decoded, extra keys included: the
 * client reads `status`, `data` and (own key only) `totalCount`.
 */
const READ_ANSWER_GUARDS = new Map<z.ZodType, (value: unknown) => boolean>([
  [getAllAnswer, isSuccessWithRecords],
  [getObjectAnswer, isSuccessWithRecords],
]);

/**
 * `true` when `value` is certainly a valid answer of `schema`, known without parsing: the hot read answers
 * (`getAll`, `getObject`). `false` means "ask the schema", not "invalid".
 */
export function passesAsDecoded(schema: z.ZodType, value: unknown): boolean {
  return READ_ANSWER_GUARDS.get(schema)?.(value) === true;
}

/** Update success: the document's save answer plus the fields that changed. */
export const updateAnswer = z.object({
  status: z.literal('success'),
  savedObjectId: z.string().min(1),
  message,
  updatedFields: jsonObject,
});

/** JSON login success, as checked. */
export type JsonLoginAnswer = z.output<typeof jsonLoginAnswer>;

/** Form login success, as checked: `userId` a string even when the upstream sent a number. */
export type FormLoginAnswer = z.output<typeof formLoginAnswer>;

/** Save success, as checked. */
export type SaveAnswer = z.output<typeof saveAnswer>;

/** Update success, as checked. */
export type UpdateAnswer = z.output<typeof updateAnswer>;
