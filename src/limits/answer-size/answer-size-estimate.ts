/**
 * What an operation's answer will weigh, estimated before any resolver runs from its document and the
 * values its request carries (variables, their defaults, the arguments' defaults, GET's too), so that an
 * answer that cannot fit `MAX_ANSWER_BYTES` is refused before it is built (`answer-size-limit.ts`).
 *
 * The fields are merged as execution merges them (`fold-merged-fields.ts`): fragments never change the
 * estimate, each alias counts again. Two numbers are folded:
 * - `recordUnits`: the records' own values the answer repeats. `data` and `field(path)` of a `DataObject`
 *   (and a metadata's `data`) are one record each; a scalar field of a typed object one share of its record
 *   (all of them together one record). A page field multiplies what is below it by the objects it answers.
 * - `fixedBytes`: everything else, a few characters per field (keys, ids, counts, braces).
 * The estimate is `fixedBytes + recordUnits × w`, where `w` is the heaviest learnt weight of a record of the
 * object types the operation reads (`src/objects/record-weights.ts`). Heaviest rather than per field: a
 * fragment read below two page fields is folded once for both, so the fold cannot tell their types apart.
 * The folds also give the operation's cost with the request's page sizes (`cost-limit-rule.ts`).
 */
import {
  Kind,
  type DocumentNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import type { PageLimits } from '../../objects/read-page.ts';
import { operationCost } from '../cost-limit-rule.ts';
import { foldMergedFields, TooLargeToFold, type MergedField } from '../fold-merged-fields.ts';
import { operationValues, VariablesDoNotFit, type OperationValues } from '../operation-values.ts';
import { pageCost } from '../upstream-call-estimate.ts';
import type { UpstreamCallKinds } from '../upstream-call-kinds.ts';

/** What an operation's answer is made of (see the file's comment). */
export interface AnswerShape {
  /** The operation's cost with the request's page sizes (`Infinity`: too large to walk). */
  cost: number;
  recordUnits: number;
  fixedBytes: number;
  /** The object types whose records the operation reads (those its arguments or types name). */
  objectNames: readonly string[];
}

/** What {@link answerShape} needs. */
export interface AnswerShapeOptions {
  schema: GraphQLSchema;
  kinds: UpstreamCallKinds;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Readonly<Record<string, unknown>> | undefined;
  pageLimits: PageLimits;
}

/** Characters a field adds besides its value: its key, quotes, colon, comma. */
const FIELD_BYTES = 16;
/** Characters of a scalar that is not a record's value (an id, a count, a cursor). */
const LEAF_BYTES = 32;
/** The generic object type and the field of a metadata's value. */
const GENERIC_OBJECT_TYPE = 'DataObject';
const RECORD_FIELDS = new Set(['data', 'field']);
const METADATA_TYPE = 'ObjectMetadata';
const DATA_OBJECT_DIRECTIVE = 'dataObject';
const MAX_VISITS = 10_000;

const PAGE_ARGUMENTS = ['first', 'after', 'last', 'before'] as const;

/** The `@dataObject(name:)` of a type, if it is a typed object type. */
function dataObjectName(type: GraphQLNamedType | undefined): string | undefined {
  const directive = type?.astNode?.directives?.find((d) => d.name.value === DATA_OBJECT_DIRECTIVE);
  const name = directive?.arguments?.find((a) => a.name.value === 'name')?.value;
  return name?.kind === Kind.STRING ? name.value : undefined;
}

/** The named type under list and non-null wrappers. */
function namedOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): GraphQLNamedType | undefined {
  return schema.getType(String(field.type).replace(/[[\]!]/g, '')) ?? undefined;
}

/** The object type a page or by-id field reads: its `objectName` argument, else its type's (or its nodes'). */
function objectNameOf(
  schema: GraphQLSchema,
  values: OperationValues,
  { field, fieldNodes }: MergedField,
): string | undefined {
  const node = fieldNodes[0];
  if (field === undefined || node === undefined) return undefined;
  const given = values.argument(field, node, 'objectName');
  if (typeof given === 'string') return given;
  const type = namedOf(schema, field);
  const nodes = type !== undefined && 'getFields' in type ? type.getFields().nodes : undefined;
  if (nodes === undefined) return dataObjectName(type);
  return dataObjectName(schema.getType(String(nodes.type).replace(/[[\]!]/g, '')) ?? undefined);
}

/** A typed object's share of its record per scalar field: one over its scalar fields besides `id`. */
function typedShare(type: MergedField['parentType']): number {
  const scalars = Object.values(type.getFields()).filter(
    (f) => f.name !== 'id' && !('getFields' in (namedTypeOfField(f) ?? {})),
  ).length;
  return scalars === 0 ? 0 : 1 / scalars;
}

function namedTypeOfField(field: GraphQLField<unknown, unknown>): object | undefined {
  let type: unknown = field.type;
  while (typeof type === 'object' && type !== null && 'ofType' in type) type = type.ofType;
  return typeof type === 'object' && type !== null ? type : undefined;
}

/** The shape of `operation`'s answer with `variables`; `undefined` when the variables do not fit. */
export function answerShape(options: AnswerShapeOptions): AnswerShape | undefined {
  const { schema, kinds, document, operation, variables, pageLimits } = options;
  let values: OperationValues;
  try {
    values = operationValues(operation, variables);
  } catch (error) {
    if (error instanceof VariablesDoNotFit) return undefined;
    throw error;
  }
  const objectNames = new Set<string>();
  const shares = new Map<string, number>();
  const objectsOf = (merged: MergedField): number | undefined => {
    const kind = kinds.get(`${merged.parentType.name}.${merged.name}`);
    if (kind !== 'page' && kind !== 'byId') return undefined;
    const name = objectNameOf(schema, values, merged);
    if (name !== undefined) objectNames.add(name);
    if (kind === 'byId') return 1;
    const node = merged.fieldNodes[0];
    if (merged.field === undefined || node === undefined) return 1;
    const field = merged.field;
    const args = Object.fromEntries(PAGE_ARGUMENTS.map((a) => [a, values.argument(field, node, a)]));
    return pageCost(args, pageLimits).objects;
  };
  const units = (merged: MergedField): number => {
    if (merged.composite) return (objectsOf(merged) ?? 1) * merged.childValue();
    const parent = merged.parentType;
    if (parent.name === GENERIC_OBJECT_TYPE) return RECORD_FIELDS.has(merged.name) ? 1 : 0;
    if (parent.name === METADATA_TYPE) return merged.name === 'data' ? 1 : 0;
    if (merged.name === 'id' || dataObjectName(parent) === undefined) return 0;
    let share = shares.get(parent.name);
    if (share === undefined) {
      share = typedShare(parent);
      shares.set(parent.name, share);
    }
    return share;
  };
  const fixed = (merged: MergedField): number => {
    if (!merged.composite) return FIELD_BYTES + LEAF_BYTES;
    return FIELD_BYTES + (objectsOf(merged) ?? 1) * (FIELD_BYTES + merged.childValue());
  };
  const fold = (fieldValue: (merged: MergedField) => number): number =>
    foldMergedFields({
      schema,
      document,
      operation,
      include: values.include,
      fieldValue,
      maxVisits: MAX_VISITS,
    });
  try {
    const recordUnits = fold(units);
    const fixedBytes = fold(fixed);
    // A page field answers its objects whether or not `first` is given: its cost multiplies by them.
    const cost = operationCost(schema, document, operation, values, (merged) => {
      const kind = kinds.get(`${merged.parentType.name}.${merged.name}`);
      return kind === 'page' ? Math.max(1, objectsOf(merged) ?? 1) : undefined;
    });
    return { cost, recordUnits, fixedBytes, objectNames: [...objectNames] };
  } catch (error) {
    if (error instanceof TooLargeToFold) {
      return { cost: Infinity, recordUnits: Infinity, fixedBytes: Infinity, objectNames: [] };
    }
    throw error;
  }
}
