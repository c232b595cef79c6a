/**
 * What a read-back shows otherwise than a write sent: each field sent compared with the record read after it
 * (`stored-value.ts`, by meaning). The caller is told each field and both values, so the values are carried as
 * the JSON text the gateway holds (exact numbers keep their digits), cut to a length a message can hold.
 */
import { sameStoredValue, type StoredValueOptions } from './stored-value.ts';

/** One field a read-back does not show as sent. */
export interface FieldDifference {
  /** The field's name, as sent (a top-level key of the write's data). */
  field: string;
  /** What was sent, as JSON text. */
  sent: string;
  /** What the read showed, as JSON text; `null` when the record has no such field (dropped). */
  readBack: string | null;
}

/** Longest value text carried in a difference; longer ones end in `…`. */
export const MAX_VALUE_TEXT = 200;

/** A value as JSON text, cut to {@link MAX_VALUE_TEXT} characters. */
export function valueText(value: unknown): string {
  const text = value === undefined ? 'null' : JSON.stringify(value);
  return text.length <= MAX_VALUE_TEXT ? text : `${text.slice(0, MAX_VALUE_TEXT - 1)}…`;
}

/** The fields of `sent` (`_id` aside) that `record` does not hold as sent, in the order they were sent. */
export function readBackDifferences(
  sent: Readonly<Record<string, unknown>>,
  record: Readonly<Record<string, unknown>>,
  options: StoredValueOptions = {},
): FieldDifference[] {
  const differences: FieldDifference[] = [];
  for (const [field, value] of Object.entries(sent)) {
    if (field === '_id') continue;
    const present = Object.hasOwn(record, field);
    const back = present ? record[field] : undefined;
    if (sameStoredValue(value, back, options)) continue;
    differences.push({ field, sent: valueText(value), readBack: present ? valueText(back) : null });
  }
  return differences;
}

/** The differences as one sentence: `"rate" sent 2.7, read back 2; "note" sent "x", not read back`. */
export function describeDifferences(differences: readonly FieldDifference[]): string {
  return differences
    .map(
      ({ field, sent, readBack }) =>
        `${JSON.stringify(field)} sent ${sent}, ${readBack === null ? 'missing from the read-back' : `read back ${readBack}`}`,
    )
    .join('; ');
}
