/**
 * The run-time verification of `matches_case` (`UPSTREAM_MATCHES_CASE`): an object read by id that comes
 * back with an `_id` differing from the one asked only in case. The gateway asks by an escaped, anchored id
 * (or, `exact`, the id itself), so only an upstream that ignores case answers such an object; it costs one
 * comparison, and only for a record that was not asked for (the answers read by id are matched by `_id`).
 * Filtered reads are not verified: their values are compiled patterns (every spelling of a number, every
 * variant of `caseInsensitive`), and telling a wrong record from a right one would cost a second matcher.
 */
import type { UpstreamError } from '../../errors/upstream-error.ts';
import { dialectMismatch } from './assumptions.ts';
import type { MatchesDialect } from './matches-pattern.ts';

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
export function caseIgnored(operation: string, dialect: MatchesDialect): UpstreamError {
  const seen = 'an object read by id came back with an _id that differs from the one asked only in case';
  const detail =
    dialect.matchesMode === 'exact'
      ? `${seen}: the upstream's equality ignores case, which no setting can turn off (UPSTREAM_MATCHES=exact sends no pattern).`
      : dialect.matchesCase === 'insensitive'
        ? `${seen}, although every pattern goes out after (?-i): the upstream ignores that flag and its matches cannot be made case-sensitive.`
        : `${seen}: the upstream's matches ignores case; set UPSTREAM_MATCHES_CASE=insensitive so that every pattern goes out after (?-i).`;
  return dialectMismatch(operation, 'matches_case', detail);
}
