/**
 * Whether a value read back after a write is the value that was sent, by meaning rather than spelling. An
 * upstream written apart from us (a Java entity, MongoDB behind it) gives back what it stored in its own
 * words: `2.70` as `2.7`, a date as `{"$date": …}` or with another offset, a reference as `{"$oid": …}`, a long
 * past 2^53 as digits the gateway keeps exactly (`exact-json.ts`). Those mean the same; `2.7` read back as `2`,
 * a shortened text, a number read back as its text, do not: the upstream changed what was sent.
 */
import { isExactNumber, numberText, type ExactNumber } from '../exact-json.ts';

/** A number's spelling reduced to sign, digits and exponent: `2.70`, `2.7` and `27e-1` alike. */
interface DecimalValue {
  negative: boolean;
  digits: string;
  exponent: number;
}

const NUMBER_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** `text` as a decimal value, or `undefined` when it is no JSON number. Exact: no double on the way. */
function decimalOf(text: string): DecimalValue | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let shift = Number(exponent) - fraction.length;
  if (digits === '') return { negative: false, digits: '0', exponent: 0 };
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  shift += trailing;
  return { negative: sign === '-', digits, exponent: shift };
}

const isNumeric = (value: unknown): value is number | ExactNumber =>
  typeof value === 'number' || isExactNumber(value);

/** Whether two numbers (plain or exact) are the same value, compared digit by digit. */
function sameNumber(a: number | ExactNumber, b: number | ExactNumber): boolean {
  const left = decimalOf(numberText(a));
  const right = decimalOf(numberText(b));
  if (left === undefined || right === undefined) return false;
  return left.negative === right.negative && left.digits === right.digits && left.exponent === right.exponent;
}

/** An ISO 8601 date-time with a zone (`Z` or an offset): the only text read as an instant. */
const INSTANT_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** The instant `value` stands for, in milliseconds: an ISO text with a zone, or MongoDB's `{"$date": …}`. */
function instantOf(value: unknown): number | undefined {
  if (typeof value === 'string') {
    if (!INSTANT_TEXT.test(value)) return undefined;
    const millis = Date.parse(value);
    return Number.isNaN(millis) ? undefined : millis;
  }
  const date = extendedMember(value, '$date');
  if (date === undefined) return undefined;
  if (typeof date === 'number') return date;
  if (isExactNumber(date)) return Number(date.rawJSON);
  const long = extendedMember(date, '$numberLong');
  if (typeof long === 'string' && /^-?\d+$/.test(long)) return Number(long);
  return instantOf(date);
}

/** The value of MongoDB extended JSON's one-key wrapper `{"<key>": value}`, or `undefined`. */
function extendedMember(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isExactNumber(value))
    return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === key ? (value as Record<string, unknown>)[key] : undefined;
}

/** The number an extended-JSON number wrapper (`$numberLong`, `$numberDecimal`, …) holds, as text. */
function wrappedNumber(value: unknown): string | undefined {
  for (const key of ['$numberLong', '$numberInt', '$numberDecimal', '$numberDouble']) {
    const inner = extendedMember(value, key);
    if (typeof inner === 'string' && decimalOf(inner) !== undefined) return inner;
  }
  return undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isExactNumber(value);

/** Options of {@link sameStoredValue}. */
export interface StoredValueOptions {
  /**
   * A number or boolean read back as its text means the same (`5` as `"5"`): the dialect of an update taking
   * one query parameter per field, where every value travels as text (`UPSTREAM_UPDATE_FIELDS=params`).
   */
  textForScalars?: boolean;
}

/**
 * Whether `readBack` means `sent`: numbers by value (`2.7` = `2.70`, never `2`), instants by the moment they
 * name, a reference id sent as text and read back as `{"$oid": …}`, objects key by key (keys the upstream
 * added are its own bookkeeping, not a change), arrays element by element, everything else equal.
 */
export function sameStoredValue(sent: unknown, readBack: unknown, options: StoredValueOptions = {}): boolean {
  if (isNumeric(sent)) {
    if (isNumeric(readBack)) return sameNumber(sent, readBack);
    const wrapped = wrappedNumber(readBack);
    if (wrapped !== undefined) return sameNumber(sent, JSON.rawJSON(wrapped));
    return options.textForScalars === true && typeof readBack === 'string'
      ? decimalOf(readBack) !== undefined && sameNumber(sent, JSON.rawJSON(readBack))
      : false;
  }
  if (typeof sent === 'boolean')
    return readBack === sent || (options.textForScalars === true && readBack === String(sent));
  if (typeof sent === 'string') {
    if (readBack === sent) return true;
    const oid = extendedMember(readBack, '$oid');
    if (oid !== undefined) return oid === sent;
    const instant = instantOf(sent);
    return instant !== undefined && instantOf(readBack) === instant;
  }
  if (sent === null || sent === undefined) return readBack === null || readBack === undefined;
  if (Array.isArray(sent)) {
    if (!Array.isArray(readBack) || readBack.length !== sent.length) return false;
    return sent.every((item, i) => sameStoredValue(item, readBack[i], options));
  }
  if (isPlainObject(sent)) {
    if (!isPlainObject(readBack)) return false;
    return Object.keys(sent).every((key) =>
      sameStoredValue(sent[key], Object.hasOwn(readBack, key) ? readBack[key] : undefined, options),
    );
  }
  return false;
}

/**
 * Whether `value`, as the gateway holds it after reading it from the upstream, can be sent back and be stored
 * exactly as it was: plain JSON (exact numbers included). An object holding a `$` key (MongoDB extended JSON:
 * `{"$date": …}`, `{"$oid": …}`) is how the upstream *shows* a typed value, not how it takes one: sent back it
 * would be stored as a nested object (or refused), so it is never written back. With `lossyText` (the upstream
 * answers in a single-byte charset, `mayAnswerLossyText`), neither is a text holding `?`.
 */
export function isRestorable(value: unknown, lossyText = false): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  // A `?` from an upstream answering in a single-byte charset may stand for a character it could not write.
  if (typeof value === 'string') return !lossyText || !value.includes('?');
  if (value === null || typeof value === 'boolean') return true;
  if (isExactNumber(value)) return true;
  if (Array.isArray(value)) return value.every((item) => isRestorable(item, lossyText));
  if (!isPlainObject(value)) return false;
  return Object.entries(value).every(
    ([key, item]) =>
      !key.startsWith('$') && (!lossyText || !key.includes('?')) && isRestorable(item, lossyText),
  );
}
