/**
 * The operations compiled execution leaves to graphql-js, decided from the document alone (once per
 * document): where graphql-jit would answer otherwise, or has nothing to answer with.
 */
import {
  Kind,
  OperationTypeNode,
  visit,
  BREAK,
  type ASTNode,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
// By file: the CommonJS copy the schema's types are (`compiled-executor.ts` says why).
import { getNamedType, isScalarType } from 'graphql/type/definition.js';
import { isSpecifiedScalarType } from 'graphql/type/scalars.js';
import { TypeInfo, visitWithTypeInfo } from 'graphql/utilities/TypeInfo.js';

/** Why graphql-js answers an operation. */
export type InterpretedReason =
  /** graphql-jit runs the mutation fields after a non-null one failed (graphql-js stops: no more writes). */
  | 'mutation'
  /** Refused before execution anyway (`refuse-subscriptions.ts`). */
  | 'subscription'
  /** graphql-jit has no incremental delivery. */
  | 'defer-or-stream'
  /**
   * A value of a custom scalar written in the document (an argument, an input field, a variable's
   * default): graphql-jit parses it once and writes the parsed value into the compiled code as JSON, which
   * turns a `Long`'s exact digits (`JSON.rawJSON`) into a rounded double, and any other object into its JSON.
   */
  | 'custom-scalar-literal'
  /**
   * A response key selected more than once where an occurrence has `@skip`/`@include`: graphql-jit merges
   * the sub-selections of a skipped occurrence into the answer, and orders the key where it first appears
   * skipped or not (graphql-js leaves the skipped occurrence out).
   */
  | 'conditional-duplicate';

/** More selections than this, fragments expanded, and the document is left to graphql-js unexamined. */
const MAX_EXPANDED_SELECTIONS = 10_000;

const isCondition = (directive: DirectiveNode) =>
  directive.name.value === 'skip' || directive.name.value === 'include';

function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'defer' || node.name.value === 'stream') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** The value nodes whose input type the visitor has at hand. */
const VALUE_KINDS = new Set<ASTNode['kind']>([
  Kind.INT,
  Kind.FLOAT,
  Kind.STRING,
  Kind.BOOLEAN,
  Kind.ENUM,
  Kind.LIST,
  Kind.OBJECT,
]);

function hasCustomScalarLiteral(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      enter(node) {
        if (!VALUE_KINDS.has(node.kind)) return undefined;
        const type = typeInfo.getInputType();
        const named = type === null || type === undefined ? undefined : getNamedType(type);
        if (named !== undefined && isScalarType(named) && !isSpecifiedScalarType(named)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  return found;
}

interface Occurrence {
  field: FieldNode;
  conditional: boolean;
}

/**
 * Whether selection sets merged into one (a field's occurrences' sub-selections) select a response key
 * twice with `@skip`/`@include` on one of the occurrences (or on a fragment around it), at any depth.
 */
function hasConditionalDuplicate(
  sets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  budget: { left: number },
): boolean {
  const byKey = new Map<string, Occurrence[]>();
  const walk = (set: SelectionSetNode, conditional: boolean): void => {
    for (const selection of set.selections) {
      budget.left -= 1;
      if (budget.left < 0) return;
      const here = conditional || (selection.directives ?? []).some(isCondition);
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const occurrences = byKey.get(key) ?? [];
        occurrences.push({ field: selection, conditional: here });
        byKey.set(key, occurrences);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, here);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment !== undefined) walk(fragment.selectionSet, here);
      }
    }
  };
  for (const set of sets) walk(set, false);
  if (budget.left < 0) return true;
  for (const occurrences of byKey.values()) {
    if (occurrences.length > 1 && occurrences.some((o) => o.conditional)) return true;
    const merged = occurrences.flatMap((o) =>
      o.field.selectionSet === undefined ? [] : [o.field.selectionSet],
    );
    if (merged.length > 0 && hasConditionalDuplicate(merged, fragments, budget)) return true;
  }
  return false;
}

/** Why graphql-js answers `operation` of `document`, or `undefined` when it can be compiled. */
export function interpretedReason(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): InterpretedReason | undefined {
  if (operation.operation === OperationTypeNode.MUTATION) return 'mutation';
  if (operation.operation === OperationTypeNode.SUBSCRIPTION) return 'subscription';
  if (usesIncrementalDelivery(document)) return 'defer-or-stream';
  if (hasCustomScalarLiteral(schema, document)) return 'custom-scalar-literal';
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const budget = { left: MAX_EXPANDED_SELECTIONS };
  if (hasConditionalDuplicate([operation.selectionSet], fragments, budget)) return 'conditional-duplicate';
  return undefined;
}
