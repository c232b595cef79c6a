import type { MatchesMode, UpstreamRecord } from '../../src/upstream/client/wire.ts';
import { translateJavaPattern } from '../java-pattern/java-pattern.ts';
import { MAX_PATTERN_LENGTH, rejectPattern } from './regex-guard.ts';
import { lastPerField } from './read-quirks.ts';

/** A parsed filter command, ready to test records. */
export interface Filter {
  criteria: readonly { path: readonly string[]; test: (text: string) => boolean }[];
  /**
   * When a criterion pins `_id` to literal ids (`id`, or `id1|id2` as batched lookups send), the only
   * records that can match: the store looks them up instead of scanning.
   */
  idCandidates: readonly string[] | undefined;
  /** The `matchesStringsOnly` read quirk: a criterion never matches a value that is not a string. */
  stringsOnly?: boolean | undefined;
}

/** How `matches` reads a value: the emulator's `matches` and `matchesCase` dialects. */
export interface MatchesReading {
  mode: MatchesMode;
  /** `Pattern.CASE_INSENSITIVE` (patterns), `equalsIgnoreCase` (`exact`). */
  caseInsensitive: boolean;
  /** The `wrapAnchors` read quirk: `"^" + value + "$"`, found (`read-quirks.ts`). */
  wrapAnchors?: boolean | undefined;
  /** The `lastCriterionPerField` read quirk. */
  lastPerField?: boolean | undefined;
  /** The `matchesStringsOnly` read quirk. */
  stringsOnly?: boolean | undefined;
}

/** Compiled client patterns, so a repeated filter is compiled once. Bounded: cleared when full. */
export interface PatternCache {
  /**
   * `find`: the pattern may match any part of the value (`Matcher.find()`), else the whole value;
   * `caseInsensitive`: compiled with `Pattern.CASE_INSENSITIVE`.
   */
  compile(value: string, find?: boolean, caseInsensitive?: boolean): RegExp | string;
}

const MAX_CACHED_PATTERNS = 1000;
const MAX_CRITERIA = 50;
const MAX_FIELD_NAME_LENGTH = 200;

/** A cache of compiled patterns (or of why a pattern was refused). */
export function createPatternCache(): PatternCache {
  const cache = new Map<string, RegExp | string>();
  return {
    compile(value, find = false, caseInsensitive = false) {
      const key = `${find ? 'f' : 'm'}${caseInsensitive ? 'i' : 's'}${value}`;
      let compiled = cache.get(key);
      if (compiled !== undefined) return compiled;
      compiled = compileJavaPattern(value, find, caseInsensitive);
      if (cache.size >= MAX_CACHED_PATTERNS) cache.clear();
      cache.set(key, compiled);
      return compiled;
    },
  };
}

/**
 * A client pattern as Java's `String.matches` reads it: translated to JavaScript (docs/design.md, "Where the
 * emulator is not yet the upstream"), screened by the ReDoS guard, anchored to the whole text. With `find`,
 * as `Matcher.find()` reads it: not anchored, so it matches when any part of the text does (the dialect of
 * `EMULATOR_MATCHES=find`). With `caseInsensitive`, as `Pattern.compile(value, CASE_INSENSITIVE)` reads it
 * (`EMULATOR_MATCHES_CASE=insensitive`; `(?-i)` turns it off). Answers the error message when Java would
 * refuse it or the emulator does not run it.
 */
export function compileJavaPattern(value: string, find = false, caseInsensitive = false): RegExp | string {
  if (value.length > MAX_PATTERN_LENGTH)
    return `unsupported regular expression in filter: pattern longer than ${MAX_PATTERN_LENGTH} characters`;
  const translation = translateJavaPattern(value, { find, caseInsensitive });
  if ('error' in translation) {
    return translation.unsupported
      ? `unsupported regular expression in filter: ${translation.error}`
      : `invalid regular expression in filter: ${translation.error}`;
  }
  const refusal = rejectPattern(translation.guardSource, translation.linear);
  if (refusal !== undefined) return `unsupported regular expression in filter: ${refusal}`;
  try {
    // The translation is a complete pattern (its parentheses balance), so it cannot close this group early.
    return new RegExp(find ? translation.source : `^(?:${translation.source})$`);
  } catch {
    return 'unsupported regular expression in filter: its translation did not compile';
  }
}

const LITERAL_IDS = /^(?:\((?:\?:)?)?([\w-]+(?:\|[\w-]+)*)\)?$/;

/** What an upstream compiling with `CASE_INSENSITIVE` is sent to mind case again (the gateway's prefix). */
const CASE_SENSITIVE_FLAG = '(?-i)';

/** The ids a `_id` criterion can only match, when its value is literal ids. */
function literalIds(value: string, { mode, caseInsensitive }: MatchesReading): string[] | undefined {
  // Ignoring case, `abc` also matches the id `ABC`: unless `(?-i)` comes first, every object is a candidate.
  if (caseInsensitive) {
    if (mode === 'exact' || !value.startsWith(CASE_SENSITIVE_FLAG)) return undefined;
    return literalIds(value.slice(CASE_SENSITIVE_FLAG.length), { mode, caseInsensitive: false });
  }
  if (mode === 'exact') return [value];
  // Found anywhere, `abc` also matches the id `xabcx`: every object is a candidate.
  if (mode === 'find') return undefined;
  const match = LITERAL_IDS.exec(value);
  if (match === null || value.startsWith('(') !== value.endsWith(')')) return undefined;
  return (match[1] ?? '').split('|');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses the `filterCommand` parameter: `{criteria:[{fieldName, operator:'matches', value}]}`. A missing
 * or empty parameter matches everything. Answers a plain error message for anything else it cannot use.
 */
export function parseFilterCommand(
  raw: string | null,
  reading: MatchesReading,
  patterns: PatternCache,
): Filter | string {
  const { mode, caseInsensitive } = reading;
  if (raw === null || raw.trim() === '') return { criteria: [], idCandidates: undefined };
  let command: unknown;
  try {
    command = JSON.parse(raw);
  } catch {
    return 'filterCommand is not valid JSON';
  }
  if (!isObject(command) || !Array.isArray(command.criteria))
    return 'filterCommand must be an object with a criteria array';
  if (command.criteria.length > MAX_CRITERIA) return `filterCommand has more than ${MAX_CRITERIA} criteria`;
  const criteria: Filter['criteria'][number][] = [];
  let idCandidates: string[] | undefined;
  for (const criterion of command.criteria as unknown[]) {
    if (!isObject(criterion)) return 'each criterion must be an object';
    const { fieldName, operator, value } = criterion;
    if (typeof fieldName !== 'string' || fieldName === '' || fieldName.length > MAX_FIELD_NAME_LENGTH) {
      return 'each criterion needs a fieldName (a non-empty string)';
    }
    if (operator !== 'matches') {
      return typeof operator === 'string'
        ? `unsupported operator ${JSON.stringify(operator.slice(0, 40))}: only matches is supported`
        : 'each criterion needs an operator (matches)';
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      return 'each criterion needs a value (a string)';
    }
    const text = String(value);
    let test: (subject: string) => boolean;
    if (mode === 'exact')
      test = caseInsensitive ? (subject) => equalsIgnoreCase(subject, text) : (subject) => subject === text;
    else if (reading.wrapAnchors === true) {
      // A service that anchors the value itself, then finds it: `^a|b$` anchors `a` at the start only.
      const compiled = patterns.compile(`^${text}$`, true, caseInsensitive);
      if (typeof compiled === 'string') return compiled;
      test = (subject) => compiled.test(subject);
    } else {
      const compiled = patterns.compile(text, mode === 'find', caseInsensitive);
      if (typeof compiled === 'string') return compiled;
      test = (subject) => compiled.test(subject);
    }
    if (fieldName === '_id' && reading.wrapAnchors !== true) idCandidates ??= literalIds(text, reading);
    criteria.push({ path: fieldName.split('.'), test });
  }
  // A service that builds its query as a map from field to condition keeps the last condition of each field.
  const stringsOnly = reading.stringsOnly === true;
  if (reading.lastPerField === true) {
    const kept = lastPerField(criteria);
    return {
      criteria: kept,
      idCandidates: kept.some((c) => c.path.join('.') === '_id') ? idCandidates : undefined,
      stringsOnly,
    };
  }
  return { criteria, idCandidates, stringsOnly };
}

/** Java's `String.equalsIgnoreCase`: the same length, each pair of characters equal in upper or lower case. */
function equalsIgnoreCase(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a.charAt(i);
    const y = b.charAt(i);
    if (x !== y && x.toUpperCase() !== y.toUpperCase() && x.toLowerCase() !== y.toLowerCase()) return false;
  }
  return true;
}

/**
 * The text a criterion compares: the value at the dotted path (own properties only), strings as they are,
 * other scalars by `String()`, objects and arrays as JSON. A missing field matches nothing.
 */
export function fieldText(
  record: UpstreamRecord,
  path: readonly string[],
  stringsOnly = false,
): string | undefined {
  let value: unknown = record;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  // MongoDB's `$regex` matches strings only: a number, a boolean, a `{"$date"}` or `{"$oid"}` never.
  if (stringsOnly) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined ? undefined : JSON.stringify(value);
}

/** Whether the record satisfies every criterion (criteria are combined with AND). */
export function matchesFilter(record: UpstreamRecord, filter: Filter): boolean {
  for (const { path, test } of filter.criteria) {
    const text = fieldText(record, path, filter.stringsOnly);
    if (text === undefined || !test(text)) return false;
  }
  return true;
}
