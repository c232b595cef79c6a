/**
 * `MAX_COST`: GraphQL Armor's cost formula (a leaf 1, a field with a sub-selection 2 plus 1.5 times its
 * sub-selection's cost, times its literal `first` or `last`) counted over the fields the operation really
 * fetches (`fold-merged-fields.ts`), where Armor's own rule counts the document as written: every fragment
 * spread there adds a level (×1.5) and the same field reached through several fragments counts again, so a
 * page of 5 with 6 nested Relay fragments cost 9,874 and was refused. Here wrapping selections in fragments,
 * inline or named, nested or repeated, never changes the cost; two aliases of a field are still two fields.
 *
 * A validation rule: the variables are not known yet, so `first: $n` multiplies by 1 (as Armor's) and a
 * selection under `@skip`/`@include` with a variable counts. The upstream-call estimate, which sees the
 * variables, bounds what a page size from a variable fetches (`upstream-call-limit.ts`).
 */
import { Kind } from 'graphql';
import type { ASTVisitor, FieldNode, GraphQLSchema, ValidationContext, ValidationRule } from 'graphql';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { ErrorCode } from '../errors/error-codes.ts';
import { limitError } from '../errors/graphql-errors.ts';
import { foldMergedFields, literalInclude, TooLargeToFold, type MergedField } from './fold-merged-fields.ts';

/** Armor's defaults (`@escape.tech/graphql-armor-cost-limit`), kept so that `MAX_COST` means what it meant. */
const SCALAR_COST = 1;
const OBJECT_COST = 2;
const DEPTH_COST_FACTOR = 1.5;

/** Selections one cost walk may visit; beyond, the operation is refused as too large to cost. */
const MAX_VISITS = 10_000;

/** The page size a field's literal `first` or `last` asks for, as Armor reads it (1 when none or a variable). */
function multiplier(node: FieldNode): number {
  const size = node.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'last')?.value;
  return size?.kind === Kind.INT ? Math.max(Number.parseInt(size.value, 10), 1) : 1;
}

function fieldCost({ name, fieldNodes, composite, childValue }: MergedField): number {
  // Introspection has its own depth limit (`introspection-depth-rule.ts`); Armor left it out of the cost too.
  if (name === '__schema') return 0;
  if (!composite) return SCALAR_COST;
  const first = fieldNodes[0];
  return (OBJECT_COST + DEPTH_COST_FACTOR * childValue()) * (first ? multiplier(first) : 1);
}

/**
 * The cost of `operation` (see the file's comment), `Infinity` when it expands past what the walk visits.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): number {
  try {
    return foldMergedFields({
      schema,
      document,
      operation,
      include: literalInclude,
      fieldValue: fieldCost,
      maxVisits: MAX_VISITS,
    });
  } catch (error) {
    if (error instanceof TooLargeToFold) return Infinity;
    throw error;
  }
}

/** The rule refusing operations that cost more than `maxCost`, with `MAX_COST_EXCEEDED`. */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const cost = operationCost(context.getSchema(), context.getDocument(), operation);
      if (cost <= maxCost) return;
      const found = Number.isFinite(cost) ? `found ${Math.round(cost)}` : 'it expands to too many fields';
      context.reportError(
        limitError(
          ErrorCode.MAX_COST_EXCEEDED,
          `Query Cost limit of ${maxCost} exceeded, ${found}.`,
          'MAX_COST',
          maxCost,
        ),
      );
    },
  });
}
