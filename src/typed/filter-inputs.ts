/**
 * Which filter input each typed field gets in its type's `where`, and the inputs of the non-text scalars:
 * a `where` takes a field's value in the field's own type (`rate: { equals: 2.5 }`, `paid: { equals: true
 * }`), and only the conditions that mean the same thing upstream, where `matches` compares the value's text.
 */
import { MAX_IN_VALUES } from '../filters/compile-criteria.ts';
import { LongScalar } from './long-scalar.ts';
import type { FieldSpec } from './spec/object-type-spec.ts';

/** The filter input of a field, by how its value is compared. */
export type FilterInputName =
  | 'FieldFilter'
  | 'IDFilter'
  | 'IntFilter'
  | 'LongFilter'
  | 'FloatFilter'
  | 'BooleanFilter'
  | 'DateTimeFilter'
  | 'RefFilter';

/** The filter input names the typed API defines once for every type (reserved against a team's names). */
export const FILTER_INPUT_NAMES: readonly FilterInputName[] = [
  'FieldFilter',
  'IDFilter',
  'IntFilter',
  'LongFilter',
  'FloatFilter',
  'BooleanFilter',
  'DateTimeFilter',
  'RefFilter',
];

/** The filter input of a filterable field (see `isFilterable`). */
export function filterInputOf(field: FieldSpec): FilterInputName {
  if (field.kind === 'id') return 'IDFilter';
  if (field.kind === 'ref') return 'RefFilter';
  const name = field.type.kind === 'scalar' ? field.type.name : 'String';
  switch (name) {
    case 'ID':
      return 'IDFilter';
    case 'Int':
      return 'IntFilter';
    case 'Long':
      return 'LongFilter';
    case 'Float':
      return 'FloatFilter';
    case 'Boolean':
      return 'BooleanFilter';
    case 'DateTime':
      return 'DateTimeFilter';
    default:
      return 'FieldFilter';
  }
}

/** What a filter input's operands are, when not text (see `FilterCondition.operandType`). */
export function operandTypeOf(input: FilterInputName): 'number' | 'dateTime' | undefined {
  if (input === 'IntFilter' || input === 'LongFilter' || input === 'FloatFilter') return 'number';
  return input === 'DateTimeFilter' ? 'dateTime' : undefined;
}

const numberFilter = (type: 'Int' | 'Long' | 'Float', example: string) => `
"""
A condition on ${type === 'Int' ? 'an' : 'a'} \`${type}\` field of a typed object, by value: \`${example}\` matches the
values the upstream stores as ${example.replaceAll('"', '')}, whatever their spelling (trailing zeros, scientific notation),
and no other.${type === 'Long' ? ' Every digit is compared, never through a double.' : ''} Both set: AND. No ranges
(\`gt\`, \`lt\`): the upstream compares a number's text with a regular expression, which cannot order every
spelling of a number safely.
"""
input ${type}Filter {
  """
  The value equals this number.
  """
  equals: ${type}
  """
  The value equals one of these numbers (at most ${MAX_IN_VALUES}; an empty list matches nothing).
  """
  in: [${type}!]
}
`;

/**
 * The SDL of the `Long` scalar (`long-scalar.ts`) and of the filter inputs of `ID`, `Int`, `Long`, `Float`,
 * `Boolean` and `DateTime` fields (`FieldFilter` and `RefFilter` are beside it).
 */
export const TYPED_FILTER_SDL = `
"""
${LongScalar.description ?? ''}
"""
scalar Long

"""
A condition on an id (\`id\`, an \`ID\` field, a reference's \`id\`): the whole id, as text. Both set: AND.
"""
input IDFilter {
  """
  The id is this one.
  """
  equals: ID
  """
  The id is one of these (at most ${MAX_IN_VALUES}; an empty list matches nothing).
  """
  in: [ID!]
}
${numberFilter('Int', '3')}${numberFilter('Long', '"9007199254740993"')}${numberFilter('Float', '2.5')}
"""
A condition on a \`Boolean\` field of a typed object. A field the record does not hold matches neither value.
"""
input BooleanFilter {
  """
  The value is this one.
  """
  equals: Boolean
  """
  The value is one of these (an empty list matches nothing).
  """
  in: [Boolean!]
}

"""
A condition on a \`DateTime\` field of a typed object, by instant (to the millisecond): it matches the value
stored in UTC (\`2024-01-15T00:00:00.000Z\` as the gateway writes it, \`…00Z\`, \`…+00:00\`), not one stored
with another offset. Both set: AND. No ranges (\`before\`, \`after\`): the upstream compares the text with
a regular expression.
"""
input DateTimeFilter {
  """
  The value is this instant.
  """
  equals: DateTime
  """
  The value is one of these instants (at most ${MAX_IN_VALUES}; an empty list matches nothing).
  """
  in: [DateTime!]
}
`;
