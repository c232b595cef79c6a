/** Translates a typed `where` into the upstream's criteria (combined with AND upstream). */
import { escapeJavaRegex } from '../upstream/regex-escape.ts';
import type { Criterion, MatchesMode } from '../upstream/types.ts';
import { isFilterable, type ObjectTypeSpec } from './object-type-spec.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The criteria of one `FieldFilter` on a record path. */
function filterCriteria(fieldName: string, filter: unknown, mode: MatchesMode): Criterion[] {
  if (!isRecord(filter)) return [];
  const out: Criterion[] = [];
  if (typeof filter.matches === 'string') out.push({ fieldName, operator: 'matches', value: filter.matches });
  if (typeof filter.equals === 'string') {
    // `equals` is a literal: escaped where `matches` is a regular expression, as it is where it is not.
    const value = mode === 'regex' ? escapeJavaRegex(filter.equals) : filter.equals;
    out.push({ fieldName, operator: 'matches', value });
  }
  return out;
}

/**
 * The criteria of a `where` (already coerced by GraphQL to the type's `…Where` input), in the type's field
 * order so equal `where`s share the per-request page cache.
 */
export function whereToCriteria(where: unknown, spec: ObjectTypeSpec, mode: MatchesMode): Criterion[] {
  if (!isRecord(where)) return [];
  const out: Criterion[] = [];
  for (const field of spec.fields.filter(isFilterable)) {
    const condition = where[field.name];
    if (field.kind === 'ref') {
      if (isRecord(condition)) out.push(...filterCriteria(field.path, condition.id, mode));
    } else {
      out.push(...filterCriteria(field.kind === 'id' ? '_id' : field.path, condition, mode));
    }
  }
  return out;
}
