/**
 * An instant as a `matches` pattern. The gateway writes a typed `DateTime` as JavaScript's `toISOString()`
 * (`2024-01-15T00:00:00.000Z`), other writers may leave out the milliseconds or spell UTC `+00:00`; the
 * pattern matches every such UTC spelling of that one instant, to the millisecond, and no other instant.
 * A value stored with another offset (`2024-01-15T02:00:00+02:00`) is the same instant written in another
 * time zone, which a pattern cannot list in full: it is not matched (README, "Typed object types").
 */
import { escapeJavaRegex } from '../upstream/pattern-guard/regex-escape.ts';

/** `2024-01-15T00:00:00.000Z` split into date, time to the second, and milliseconds. */
const ISO = /^([+-]?\d{4,6}-\d\d-\d\d)T(\d\d:\d\d:\d\d)\.(\d{3})Z$/;

/**
 * The pattern (for `matches`, which anchors it) of the UTC spellings of the instant `iso` (as
 * `Date.prototype.toISOString` writes it): `T` or `t`, milliseconds with any trailing zeros or none when
 * they are zero, `Z`, `z`, `+00:00` or `-00:00`. No repetition but one `0*`: linear in any engine.
 * Throws for a text `toISOString` cannot have written.
 */
export function dateTimePattern(iso: string): string {
  const parts = ISO.exec(iso);
  if (parts === null) throw new RangeError(`dateTimePattern: ${iso} is not an ISO instant in UTC`);
  const [, date = '', time = '', millis = ''] = parts;
  const fraction = millis.replace(/0+$/, '');
  const subSecond = fraction === '' ? '(?:\\.0+)?' : `\\.${fraction}0*`;
  return `${escapeJavaRegex(date)}[Tt]${time}${subSecond}(?:[Zz]|[+-]00:00)`;
}
