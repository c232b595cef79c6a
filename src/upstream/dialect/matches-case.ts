/**
 * The run-time verification of `matches_case` (`UPSTREAM_MATCHES_CASE`): an object read by id that comes
 * back with an `_id` differing from the one asked only in case. The gateway asks by an escaped, anchored id
 * (or, `exact`, the id itself), so only an upstream that ignores case answers such an object; it costs one
 * comparison, and only for a record that was not asked for (the answers read by id are matched by `_id`).
 * Filtered reads are verified where that costs one comparison too: a criterion whose pattern is one escaped
 * literal (what `equals`, a one-value `in` and an id compile to) names the exact text asked for, so a record
 * holding another case of it at that field is a wrong answer. Other patterns (every spelling of a number,
 * `caseInsensitive`'s letter classes, `contains`) are not: telling a wrong record from a right one would cost
 * a second matcher.
 */
import type { UpstreamError } from '../../errors/upstream-error.ts';
import { dialectMismatch } from './assumptions.ts';
import type { MatchesDialect } from './matches-pattern.ts';
import type { Criterion, UpstreamRecord } from '../client/wire.ts';

/** Whether `answered` differs from `asked` only in the case of its letters. */
export function differsOnlyInCase(asked: string, answered: string): boolean {
  return (
    asked !== answered &&
    asked.length === answered.length &&
    (asked.toLowerCase() === answered.toLowerCase() || asked.toUpperCase() === answered.toUpperCase())
  );
}

/**
 * The `UPSTREAM_DIALECT_MISMATCH` of a read by id answered with another case of the id, its remedy for the
 * settings in force: set `UPSTREAM_MATCHES_CASE=insensitive`, or none when it is set (the upstream ignores
 * `(?-i)`) or the upstream compares by plain equality (`exact`: no pattern to carry the flag).
 */
export function caseIgnored(
  operation: string,
  dialect: MatchesDialect,
  seen = 'an object read by id came back with an _id that differs from the one asked only in case',
): UpstreamError {
  const detail =
    dialect.matchesMode === 'exact'
      ? `${seen}: the upstream's equality ignores case, which no setting can turn off (UPSTREAM_MATCHES=exact sends no pattern).`
      : dialect.matchesCase === 'insensitive'
        ? `${seen}, although every pattern goes out after (?-i): the upstream ignores that flag and its matches cannot be made case-sensitive.`
        : `${seen}: the upstream's matches ignores case; set UPSTREAM_MATCHES_CASE=insensitive so that every pattern goes out after (?-i).`;
  return dialectMismatch(operation, 'matches_case', detail);
}

/** The escapes `escapeJavaRegex` writes: a syntax character after `\\`, `\\xhh`, `\\uhhhh`. */
const LITERAL_PIECE = /\\([\\^$.|?*+()[\]{}])|\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|([^\\^$.|?*+()[\]{}])/;

/**
 * The text `pattern` matches when it is one literal as `escapeJavaRegex` writes it (plain characters and
 * escapes only), else `undefined`: any class, group, alternation or quantifier makes it not one text.
 */
export function literalOf(pattern: string): string | undefined {
  const piece = new RegExp(LITERAL_PIECE.source, 'y');
  let text = '';
  while (piece.lastIndex < pattern.length) {
    const found = piece.exec(pattern);
    if (found === null) return undefined;
    const [, syntax, byte, unit, plain] = found;
    text += syntax ?? plain ?? String.fromCharCode(parseInt(byte ?? unit ?? '', 16));
  }
  return text;
}

/** The value at a dotted field path of a record (`customer.id`), or `undefined`. */
export function valueAt(record: UpstreamRecord, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Throws when an answered record holds, at the field of a literal criterion (`equals`, a one-value `in`: one
 * escaped text, or under `exact` the text itself), a text other than that literal: another case of it is the
 * `matches_case` mismatch (`equals "Open"` answered `"OPEN"`), any other text the `matches` one (a pattern
 * found in part of the value: `equals "Open"` answered `"Reopened"`). Values that are not text are left alone
 * (a number matched by its spelling, an array by an element).
 */
export function verifyLiteralMatches(
  operation: string,
  criteria: readonly Criterion[],
  records: readonly UpstreamRecord[],
  dialect: MatchesDialect,
): void {
  for (const { fieldName, operator, value } of criteria) {
    if (operator !== 'matches') continue;
    const literal = dialect.matchesMode === 'exact' ? value : literalOf(value);
    if (literal === undefined) continue;
    for (const record of records) {
      const held = valueAt(record, fieldName);
      if (typeof held !== 'string' || held === literal) continue;
      const asked = `a record asked for with ${fieldName} equal to a text came back holding`;
      if (differsOnlyInCase(literal, held))
        throw caseIgnored(operation, dialect, `${asked} that text in another case`);
      throw dialectMismatch(
        operation,
        'matches',
        `${asked} another text: the upstream's matches does not compare the whole value as UPSTREAM_MATCHES=${dialect.matchesMode} says (npm run upstream:check finds how it matches).`,
      );
    }
  }
}
