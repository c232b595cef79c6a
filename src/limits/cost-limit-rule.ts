/**
 * `MAX_COST`: GraphQL Armor's cost formula (a leaf 1, a field with a sub-selection 2 plus 1.5 times its
 * sub-selection's cost, times its literal `first` or `last`) counted over the fields the operation really
 * fetches (`fold-merged-fields.ts`), where Armor's own rule counts the document as written: every fragment
 * spread there adds a level (×1.5) and the same field reached through several fragments counts again, so a
 * page of 5 with 6 nested Relay fragments cost 9,874 and was refused. Here wrapping selections in fragments,
 * inline or named, nested or repeated, never changes the cost; two aliases of a field are still two fields.
 *
 * Counted twice. As a validation rule, where the variables are not known yet, `first: $n` multiplies by 1
 * (as Armor's) and a selection under `@skip`/`@include` with a variable counts. Then again once the
 * variables are known (`answer-size/answer-size-limit.ts`, with {@link OperationValues}): the page size the request
 * really carries multiplies, whether written, a variable (POST or GET), a variable's default or the
 * argument's default, so `first: $n` with `n = 100` costs what `first: 100` does.
 */
import { Kind } from 'graphql';
import type { ASTVisitor, GraphQLSchema, ValidationContext, ValidationRule } from 'graphql';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { ErrorCode } from '../errors/error-codes.ts';
import { limitError } from '../errors/graphql-errors.ts';
import { foldMergedFields, literalInclude, TooLargeToFold, type MergedField } from './fold-merged-fields.ts';
import type { OperationValues } from './operation-values.ts';

/** Armor's defaults (`@escape.tech/graphql-armor-cost-limit`), kept so that `MAX_COST` means what it meant. */
const SCALAR_COST = 1;
const OBJECT_COST = 2;
const DEPTH_COST_FACTOR = 1.5;

/** Selections one cost walk may visit; beyond, the operation is refused as too large to cost. */
const MAX_VISITS = 10_000;

/** The page size a field's literal `first` or `last` asks for, as Armor reads it (1 when none or a variable). */
function literalMultiplier(field: MergedField): number {
  const size = field.fieldNodes[0]?.arguments?.find(
    (a) => a.name.value === 'first' || a.name.value === 'last',
  )?.value;
  return size?.kind === Kind.INT ? Math.max(Number.parseInt(size.value, 10), 1) : 1;
}

/** The larger of `first` and `last` the request gives (its variables, their defaults, the arguments' defaults), 1 when none. */
function valuesMultiplier(values: OperationValues): (field: MergedField) => number {
  const sizeOf = (value: unknown): number =>
    typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 1;
  return ({ field, fieldNodes }) => {
    const node = fieldNodes[0];
    if (field === undefined || node === undefined) return 1;
    const first = sizeOf(values.argument(field, node, 'first'));
    const last = sizeOf(values.argument(field, node, 'last'));
    return Math.max(first, last, 1);
  };
}

function costOf(multiplier: (field: MergedField) => number): (field: MergedField) => number {
  return (merged) => {
    // Introspection has its own depth limit (`introspection-depth-rule.ts`); Armor left it out of the cost too.
    if (merged.name === '__schema') return 0;
    if (!merged.composite) return SCALAR_COST;
    return (OBJECT_COST + DEPTH_COST_FACTOR * merged.childValue()) * multiplier(merged);
  };
}

/**
 * The cost of `operation` (see the file's comment), `Infinity` when it expands past what the walk visits;
 * with `values`, the page sizes and `@skip`/`@include` the request's variables give, and with `pageSize`,
 * the objects a page field answers (its default page size when no size is given).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  values?: OperationValues,
  pageSize?: (field: MergedField) => number | undefined,
): number {
  const byValues = values === undefined ? literalMultiplier : valuesMultiplier(values);
  const multiplier =
    pageSize === undefined ? byValues : (field: MergedField) => pageSize(field) ?? byValues(field);
  try {
    return foldMergedFields({
      schema,
      document,
      operation,
      include: values?.include ?? literalInclude,
      fieldValue: costOf(multiplier),
      maxVisits: MAX_VISITS,
    });
  } catch (error) {
    if (error instanceof TooLargeToFold) return Infinity;
    throw error;
  }
}

/** `MAX_COST_EXCEEDED` for an operation that costs `cost`. */
export function costRefusal(cost: number, maxCost: number, extra: Record<string, unknown> = {}) {
  const found = Number.isFinite(cost) ? `found ${Math.round(cost)}` : 'it expands to too many fields';
  return limitError(
    ErrorCode.MAX_COST_EXCEEDED,
    `Query Cost limit of ${maxCost} exceeded, ${found}: ask for smaller pages (\`first\`, \`last\`) or fewer fields, or split the operation, or have the gateway's operator raise MAX_COST.`,
    'MAX_COST',
    maxCost,
    extra,
  );
}

/** The rule refusing operations that cost more than `maxCost`, with `MAX_COST_EXCEEDED`. */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const cost = operationCost(context.getSchema(), context.getDocument(), operation);
      if (cost <= maxCost) return;
      context.reportError(costRefusal(cost, maxCost));
    },
  });
}
