/**
 * Update's answer held to what was sent (assumption `update_fields`). The document does not say how update
 * takes its fields; an upstream that reads them another way still answers `status: success`, and its
 * `updatedFields` is the one cheap witness of what it did: a servlet that turns every query parameter into
 * a field answers `{"data": "{…}"}` to our `data={…}`. So every field `updatedFields` names is compared with
 * the value sent, and a parameter of ours answered as a field is a mismatch, not a success.
 *
 * Compared by meaning, not spelling: `updatedFields` may echo `5` as `"5"` or `5.0`, a nested object as its
 * JSON text, and (the document says "the changed fields") leave out a field whose value did not change.
 */
import { dialectMismatch } from '../assumptions.ts';
import type { UpstreamError } from '../../../errors/upstream-error.ts';
import { describeDifferences, valueText, type FieldDifference } from './read-back-differences.ts';

/** How update takes its fields (`UPSTREAM_UPDATE_FIELDS`). */
export type UpdateFieldsForm = 'data' | 'params';

/**
 * The query parameters the gateway sends on every update besides the fields: in the `params` form a field
 * of one of these names cannot be told from the parameter, so it is refused before sending.
 */
export const UPDATE_PARAMETERS = [
  'objectName',
  'apiToken',
  'username',
  'applicationCode',
  'organizationCode',
  'callback',
] as const;

/** What an update answer says about the fields sent. */
export type UpdateVerdict =
  /** At least one field sent is in `updatedFields` with the value sent, and nothing contradicts them. */
  | { kind: 'confirmed' }
  /**
   * `updatedFields` names none of the fields sent: either none changed (they already held those values) or
   * the upstream read them from somewhere else. Only a read of the object tells.
   */
  | { kind: 'unconfirmed' }
  /** `updatedFields` contradicts what was sent (`fields`: each field answered otherwise, both values). */
  | { kind: 'mismatch'; detail: string; fields?: FieldDifference[] };

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `answered` means `sent`: equal JSON values (keys in any order, numbers by value), or text that
 * spells the other side (`"5"` for `5`, `"true"` for `true`, a JSON text for an object or array: the form
 * one query parameter per field sends, which an upstream may store as text or parse). `loose: false`
 * (inside such a JSON text) takes a text for a text only.
 */
export function sameMeaning(sent: unknown, answered: unknown, loose = true): boolean {
  if (loose && typeof sent === 'string' && typeof answered !== 'string') return spells(sent, answered);
  if (loose && typeof answered === 'string' && typeof sent !== 'string') return spells(answered, sent);
  if (isNumeric(sent) && isNumeric(answered)) return numberText(sent) === numberText(answered);
  if (Array.isArray(sent) || Array.isArray(answered)) {
    if (!Array.isArray(sent) || !Array.isArray(answered) || sent.length !== answered.length) return false;
    return sent.every((element, i) => sameMeaning(element, answered[i], loose));
  }
  if (isPlainObject(sent) && isPlainObject(answered)) {
    const keys = Object.keys(sent);
    if (keys.length !== Object.keys(answered).length) return false;
    return keys.every((key) => Object.hasOwn(answered, key) && sameMeaning(sent[key], answered[key], loose));
  }
  return sent === answered;
}

/** Whether `text` spells `value`, a non-string: its number, its boolean, or its JSON text. */
function spells(text: string, value: unknown): boolean {
  if (isNumeric(value)) return NUMBER_TEXT.test(text) && numberText(Number(text)) === numberText(value);
  if (typeof value === 'boolean' || value === null) return text === String(value);
  if (typeof value !== 'object') return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  // A text inside the JSON text stays a text: "{"a":"5"}" does not mean {a: 5}.
  return typeof parsed === 'object' && sameMeaning(value, parsed, false);
}

const isNumeric = (value: unknown): value is number | bigint =>
  typeof value === 'number' || typeof value === 'bigint';

/** A number's value as text: `5`, `5.0` and `5n` alike. */
const numberText = (value: number | bigint): string =>
  typeof value === 'bigint' ? value.toString() : Object.is(value, -0) ? '0' : String(value);

/**
 * Holds `updatedFields` to the fields `sent` in `form`. A field named in both must mean the same value; a
 * field named only in the answer is tolerated (an upstream may echo its bookkeeping, `updatedAt`), unless it
 * is one of the gateway's own parameters of that form, which the upstream then took for a field.
 */
export function checkUpdatedFields(
  sent: Readonly<Record<string, unknown>>,
  updatedFields: Readonly<Record<string, unknown>>,
  form: UpdateFieldsForm,
): UpdateVerdict {
  let confirmed = 0;
  const own: readonly string[] = form === 'data' ? ['data'] : UPDATE_PARAMETERS;
  const otherwise: FieldDifference[] = [];
  for (const key of Object.keys(updatedFields)) {
    if (Object.hasOwn(sent, key)) {
      if (sameMeaning(sent[key], updatedFields[key])) confirmed += 1;
      else
        otherwise.push({ field: key, sent: valueText(sent[key]), readBack: valueText(updatedFields[key]) });
    } else if (own.includes(key)) {
      return { kind: 'mismatch', detail: ownParameterAsField(key, form) };
    }
  }
  if (otherwise.length > 0) {
    return {
      kind: 'mismatch',
      detail: `updatedFields holds ${otherwise.length} field(s) otherwise than sent (${describeDifferences(otherwise)}): the upstream changed them to something else (read the object to see what it holds).`,
      fields: otherwise,
    };
  }
  if (confirmed > 0 || Object.keys(sent).length === 0) return { kind: 'confirmed' };
  return { kind: 'unconfirmed' };
}

function ownParameterAsField(key: string, form: UpdateFieldsForm): string {
  return form === 'data'
    ? `updatedFields names a field "data": the upstream took the data parameter (the fields sent, as one JSON text) for a field of that name, so the object may now hold a text field "data" and none of the fields sent changed. UPSTREAM_UPDATE_FIELDS=params sends one parameter per field.`
    : `updatedFields names a field "${key}": the upstream took the gateway's own ${key} parameter for a field, so the object may now hold a field "${key}".`;
}

/**
 * The error of an update answered `success` whose fields did not land as sent: `UPSTREAM_DIALECT_MISMATCH`
 * (`update_fields`), marked applied (something may have been written, in a wrong form).
 */
export function updateFieldsMismatch(
  objectId: string,
  detail: string,
  fields?: readonly FieldDifference[],
): UpstreamError {
  return dialectMismatch(
    'update',
    'update_fields',
    `the upstream answered success, but ${detail}`,
    undefined,
    { objectId },
    fields,
  );
}

/**
 * Whether an update answer that {@link checkUpdatedFields} did not find contradicting still needs a read of
 * the object: it names none of the fields sent (`unconfirmed`).
 */
export function needsReadBack(
  sent: Readonly<Record<string, unknown>>,
  updatedFields: Readonly<Record<string, unknown>>,
): boolean {
  const keys = Object.keys(sent);
  return keys.length > 0 && !keys.some((key) => Object.hasOwn(updatedFields, key));
}

/**
 * Whether a read of the object confirms an update `updatedFields` did not: every field sent holds the value
 * sent (by meaning; a field left out of the record holds nothing, which only `null` means).
 */
export function recordHolds(
  record: Readonly<Record<string, unknown>>,
  sent: Readonly<Record<string, unknown>>,
): boolean {
  return Object.keys(sent).every((key) =>
    Object.hasOwn(record, key) ? sameMeaning(sent[key], record[key]) : sent[key] === null,
  );
}
