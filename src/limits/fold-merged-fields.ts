/**
 * The fields an operation really asks for, merged the way GraphQL's execution merges them (the spec's
 * CollectFields, https://spec.graphql.org/October2021/#sec-Field-Collection), folded into one number. The
 * query limits count what a query fetches, not how it is written: Relay and the client presets write a
 * fragment per component, and the same `customer { name }` reached through six nested fragments is one
 * field of the response, fetched once. Two aliases of a field are two response keys, so two fetches.
 *
 * Per selection set and runtime object type, fields are grouped by response key (alias or name) across
 * inline fragments and fragment spreads whose type condition applies, each named fragment once; a group's
 * sub-selections are merged in turn. An abstract type (`Node`) counts as its most expensive possible type.
 * The value of a group's merged sub-selection depends only on its type and its field nodes, so it is
 * computed once per such pair: fragments spread many times below distinct fields cost one walk each.
 *
 * Realm-safe: only AST nodes, schema methods and class tags are used, never graphql-js's `instanceof`
 * helpers, which throw (outside production) when the schema comes from another copy of graphql-js than this
 * module (the test runner loads it both as ESM and as CJS).
 */
import { Kind, OperationTypeNode } from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLAbstractType,
  GraphQLField,
  GraphQLNamedType,
  GraphQLObjectType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
} from 'graphql';

/** One merged field of the response, as {@link FoldOptions.fieldValue} sees it. */
export interface MergedField {
  /** The runtime object type the field is selected on. */
  parentType: GraphQLObjectType;
  /** Its definition; `undefined` for the meta fields (`__typename`, `__schema`, `__type`). */
  field: GraphQLField<unknown, unknown> | undefined;
  /** Its name in the schema. */
  name: string;
  /** Every node of the document merged into it (they agree on arguments: validation holds them to it). */
  fieldNodes: readonly FieldNode[];
  /** Whether it answers a composite type (has a sub-selection), as opposed to a leaf. */
  composite: boolean;
  /** The value of its merged sub-selection (0 for a leaf); computed on demand, at most once. */
  childValue: () => number;
}

/** What {@link foldMergedFields} needs. */
export interface FoldOptions {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Whether a selection is kept by its `@skip`/`@include` (see {@link literalInclude}). */
  include: (selection: SelectionNode) => boolean;
  /** The value of one merged field, from its sub-selection's. A selection set's value is the sum of its fields'. */
  fieldValue: (field: MergedField) => number;
  /** Selections one fold may visit before it gives up with {@link TooLargeToFold}. */
  maxVisits: number;
}

/** Thrown when the fold visits more than {@link FoldOptions.maxVisits} selections. */
export class TooLargeToFold extends Error {}

const tagOf = (value: unknown): string => Object.prototype.toString.call(value);
const isObjectType = (type: unknown): type is GraphQLObjectType =>
  tagOf(type) === '[object GraphQLObjectType]';
const isAbstractType = (type: unknown): type is GraphQLAbstractType =>
  tagOf(type) === '[object GraphQLInterfaceType]' || tagOf(type) === '[object GraphQLUnionType]';

/** The named type under list and non-null wrappers, read by shape. */
function namedType(type: unknown): GraphQLNamedType | undefined {
  let current = type;
  while (typeof current === 'object' && current !== null && 'ofType' in current) current = current.ofType;
  return current as GraphQLNamedType | undefined;
}

/** The literal value of a `Boolean` argument of a directive, `undefined` when it is a variable. */
function literalIf(selection: SelectionNode, directive: string): boolean | undefined {
  const value = selection.directives
    ?.find((d) => d.name.value === directive)
    ?.arguments?.find((a) => a.name.value === 'if')?.value;
  return value?.kind === Kind.BOOLEAN ? value.value : undefined;
}

/**
 * {@link FoldOptions.include} for validation, where the variables are not known: a selection is left out
 * only by a literal `@skip(if: true)` or `@include(if: false)`; one that depends on a variable counts.
 */
export function literalInclude(selection: SelectionNode): boolean {
  return literalIf(selection, 'skip') !== true && literalIf(selection, 'include') !== false;
}

/** Folds `operation` (see the file's comment); throws {@link TooLargeToFold}. */
export function foldMergedFields(options: FoldOptions): number {
  const { schema, document, operation, include, fieldValue, maxVisits } = options;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let visits = 0;
  const nodeIds = new Map<FieldNode, number>();
  const values = new Map<string, number>();

  const applies = (condition: string | undefined, type: GraphQLObjectType): boolean => {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = schema.getType(condition);
    return isAbstractType(conditionType) && schema.isSubType(conditionType, type);
  };

  /** CollectFields: the selections of `selectionSets` on `type`, by response key, in order. */
  const collect = (type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]) => {
    const fields = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    const walk = (selectionSet: SelectionSetNode): void => {
      for (const selection of selectionSet.selections) {
        visits += 1;
        if (visits > maxVisits) throw new TooLargeToFold();
        if (!include(selection)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          const group = fields.get(key);
          if (group === undefined) fields.set(key, [selection]);
          else group.push(selection);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (applies(selection.typeCondition?.name.value, type)) walk(selection.selectionSet);
        } else {
          const name = selection.name.value;
          if (visited.has(name)) continue;
          visited.add(name);
          const fragment = fragments.get(name);
          if (fragment !== undefined && applies(fragment.typeCondition.name.value, type)) {
            walk(fragment.selectionSet);
          }
        }
      }
    };
    for (const selectionSet of selectionSets) walk(selectionSet);
    return fields;
  };

  const fieldOf = (
    type: GraphQLObjectType,
    name: string,
  ): { field: GraphQLField<unknown, unknown> | undefined; returns: GraphQLNamedType | undefined } => {
    if (name === '__typename') return { field: undefined, returns: undefined };
    if (name === '__schema') return { field: undefined, returns: schema.getType('__Schema') ?? undefined };
    if (name === '__type') return { field: undefined, returns: schema.getType('__Type') ?? undefined };
    const field = type.getFields()[name];
    return { field, returns: namedType(field?.type) };
  };

  /** The value of `selectionSets` on the runtime object `type`: the sum of its merged fields' values. */
  const valueOn = (type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): number => {
    let sum = 0;
    for (const [, fieldNodes] of collect(type, selectionSets)) {
      const first = fieldNodes[0];
      if (first === undefined) continue;
      const { field, returns } = fieldOf(type, first.name.value);
      const below = isObjectType(returns) || isAbstractType(returns) ? returns : undefined;
      let child: number | undefined;
      sum += fieldValue({
        parentType: type,
        field,
        name: first.name.value,
        fieldNodes,
        composite: below !== undefined,
        childValue: () => (child ??= below === undefined ? 0 : valueBelow(below, fieldNodes)),
      });
    }
    return sum;
  };

  /** The value of the merged sub-selections of `fieldNodes`, answering `type`; once per type and nodes. */
  const valueBelow = (type: GraphQLNamedType, fieldNodes: readonly FieldNode[]): number => {
    const ids = fieldNodes.map((node) => {
      let id = nodeIds.get(node);
      if (id === undefined) {
        id = nodeIds.size;
        nodeIds.set(node, id);
      }
      return id;
    });
    const key = `${type.name} ${ids.join(',')}`;
    const known = values.get(key);
    if (known !== undefined) return known;
    // A fragment that spreads itself below a field (invalid: validation refuses the cycle) would never end.
    values.set(key, 0);
    const selectionSets = fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    const value = isObjectType(type)
      ? valueOn(type, selectionSets)
      : !isAbstractType(type)
        ? 0
        : Math.max(0, ...schema.getPossibleTypes(type).map((possible) => valueOn(possible, selectionSets)));
    values.set(key, value);
    return value;
  };

  const root =
    operation.operation === OperationTypeNode.MUTATION
      ? schema.getMutationType()
      : operation.operation === OperationTypeNode.SUBSCRIPTION
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  return root ? valueOn(root, [operation.selectionSet]) : 0;
}
