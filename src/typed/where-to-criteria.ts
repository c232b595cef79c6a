/** Translates a typed `where` into the upstream's criteria (combined with AND upstream). */
import type { GatewayServices } from '../graphql/context.ts';
import type { FilterCondition, FilterOperator } from '../filters/compile-criteria.ts';
import { badUserInput } from '../errors/graphql-errors.ts';
import { compileFilter } from '../objects/compile-filter.ts';
import { isJsonObject } from '../upstream/client/answers/response-schemas.ts';
import type { Criterion } from '../upstream/client/types.ts';
import { isExactNumber } from '../upstream/dialect/exact-json.ts';
import { filterInputOf, operandTypeOf, type FilterInputName } from './filter-inputs.ts';
import { isFilterable, type ObjectTypeSpec } from './spec/object-type-spec.ts';

/** The filter fields that take one operand, in the order their criteria are sent (each input has some). */
const TEXT_OPERATORS = ['matches', 'equals', 'contains', 'startsWith', 'endsWith'] as const;

/** A typed operand as the text `matches` compares: numbers and booleans as JSON (and JavaScript) write them. */
function operandText(value: unknown): string | undefined {
  // The `DateTime` scalar parses to a `Date`: written as the gateway writes instants.
  if (value instanceof Date) return value.toISOString();
  // A `Long` past 2^53 parses to a number kept with its digits: they are the text, never a double's.
  if (isExactNumber(value)) return value.rawJSON;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

/** The conditions of one filter input (at `source` in the `where`) on a record path. */
function filterConditions(
  fieldName: string,
  filter: unknown,
  source: string,
  input: FilterInputName,
): FilterCondition[] {
  if (!isJsonObject(filter)) return [];
  const operandType = operandTypeOf(input);
  const caseInsensitive = filter.caseInsensitive === true;
  const condition = (operator: FilterOperator, value: string | null, values: string[] | null) => ({
    fieldName,
    operator,
    value,
    values,
    // `caseInsensitive` applies to the literal operators of the same filter, never to its `matches`.
    caseInsensitive: operator !== 'matches' && caseInsensitive,
    ...(operandType === undefined ? {} : { operandType }),
    at: {
      value: `${source}.${operator}`,
      values: `${source}.in`,
      caseInsensitive: `${source}.caseInsensitive`,
    },
  });
  const out: FilterCondition[] = [];
  // GraphQL coerced each operand to the input's type: text (`String`, `ID`), a number, a boolean, a `Date`.
  for (const operator of TEXT_OPERATORS) {
    const value = operandText(filter[operator]);
    if (value !== undefined) out.push(condition(operator, value, null));
  }
  const values = filter.in;
  if (Array.isArray(values)) {
    const texts = values.map((v) => operandText(v) ?? '');
    out.push(condition('in', null, texts));
  }
  if (caseInsensitive && out.every((c) => c.operator === 'matches')) {
    // Alone (or with `matches` only) it would silently change nothing.
    throw badUserInput(
      `"${source}.caseInsensitive" needs equals, in, contains, startsWith or endsWith in the same filter; ` +
        'it does not apply to matches.',
      'where',
    );
  }
  return out;
}

/**
 * The criteria of a `where` (already coerced by GraphQL to the type's `…Where` input), in the type's field
 * order so equal `where`s share the per-request page cache: every condition compiled to the upstream's
 * `matches`, `matches` itself checked by the pattern guard. Throws `BAD_USER_INPUT` (argument `where`) for
 * a condition the gateway refuses, before any upstream call.
 */
export function whereToCriteria(
  where: unknown,
  spec: ObjectTypeSpec,
  services: Pick<GatewayServices, 'config' | 'patternGuard'>,
): Promise<Criterion[]> {
  const conditions: FilterCondition[] = [];
  if (isJsonObject(where)) {
    for (const field of spec.fields.filter(isFilterable)) {
      const condition = where[field.name];
      const source = `where.${field.name}`;
      if (field.kind === 'ref') {
        if (isJsonObject(condition))
          conditions.push(...filterConditions(field.path, condition.id, `${source}.id`, 'IDFilter'));
      } else {
        const path = field.kind === 'id' ? '_id' : field.path;
        conditions.push(...filterConditions(path, condition, source, filterInputOf(field)));
      }
    }
  }
  return compileFilter(conditions, services, 'where', spec.objectName);
}
