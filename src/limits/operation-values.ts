/**
 * The values the upstream-call estimate reads from an operation before execution: its scalar variables
 * (coerced as graphql-js coerces a JSON value: an `Int` is a 32-bit integer, a missing variable takes its
 * default, a non-null one must be there), the page arguments of a field, and `@skip`/`@include`.
 *
 * Written by shape rather than with graphql-js's `getVariableValues`/`getArgumentValues`, whose `instanceof`
 * checks throw (outside production) when the schema comes from the other copy of graphql-js the test
 * runner loads. Only scalar variables are checked: input objects, lists and custom scalars never change the
 * estimate, and execution coerces (and refuses) every variable again before any resolver runs.
 */
import { Kind } from 'graphql';
import type {
  FieldNode,
  GraphQLField,
  OperationDefinitionNode,
  SelectionNode,
  TypeNode,
  ValueNode,
} from 'graphql';

/** Thrown when a variable does not fit its definition (execution refuses it before any resolver runs). */
export class VariablesDoNotFit extends Error {}

const INT_MAX = 2 ** 31 - 1;

/** Whether `value` (not null) is a valid JSON input of the built-in scalar `type`. */
function fits(type: string, value: unknown): boolean {
  switch (type) {
    case 'Int':
      return Number.isInteger(value) && (value as number) >= -INT_MAX - 1 && (value as number) <= INT_MAX;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'Boolean':
      return typeof value === 'boolean';
    case 'String':
      return typeof value === 'string';
    case 'ID':
      return typeof value === 'string' || Number.isInteger(value);
    default:
      return true;
  }
}

/** A literal's value, for the scalars read here; `undefined` for anything else. */
function literal(value: ValueNode): unknown {
  switch (value.kind) {
    case Kind.INT:
      return Number.parseInt(value.value, 10);
    case Kind.FLOAT:
      return Number.parseFloat(value.value);
    case Kind.STRING:
    case Kind.BOOLEAN:
      return value.value;
    case Kind.NULL:
      return null;
    default:
      return undefined;
  }
}

/** The values of an operation's variables, for what the estimate reads. */
export interface OperationValues {
  /** Whether `selection` is kept by its `@skip` and `@include`. */
  include: (selection: SelectionNode) => boolean;
  /** The value of argument `name` of a field (its default when not given). */
  argument: (field: GraphQLField<unknown, unknown>, node: FieldNode, name: string) => unknown;
}

/**
 * The values of `operation` with `variables` (a request's JSON); throws {@link VariablesDoNotFit} when a
 * scalar variable does not fit its definition.
 */
export function operationValues(
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
): OperationValues {
  const values = new Map<string, unknown>();
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type: TypeNode = definition.type;
    const given = variables !== undefined && Object.hasOwn(variables, name);
    let value: unknown = given ? variables[name] : undefined;
    if (!given && definition.defaultValue !== undefined) value = literal(definition.defaultValue);
    if (value === undefined || value === null) {
      if (type.kind === Kind.NON_NULL_TYPE && (given || definition.defaultValue === undefined)) {
        throw new VariablesDoNotFit();
      }
    } else if (type.kind !== Kind.LIST_TYPE) {
      const named = type.kind === Kind.NON_NULL_TYPE ? type.type : type;
      if (named.kind === Kind.NAMED_TYPE && !fits(named.name.value, value)) throw new VariablesDoNotFit();
    }
    values.set(name, value);
  }

  const valueOf = (node: ValueNode): unknown =>
    node.kind === Kind.VARIABLE ? values.get(node.name.value) : literal(node);
  const directiveIf = (selection: SelectionNode, directive: string): unknown => {
    const value = selection.directives
      ?.find((d) => d.name.value === directive)
      ?.arguments?.find((a) => a.name.value === 'if')?.value;
    return value === undefined ? undefined : valueOf(value);
  };
  return {
    include: (selection) =>
      directiveIf(selection, 'skip') !== true && directiveIf(selection, 'include') !== false,
    argument: (field, node, name) => {
      const given = node.arguments?.find((a) => a.name.value === name);
      const value = given === undefined ? undefined : valueOf(given.value);
      return value !== undefined ? value : field.args.find((a) => a.name === name)?.defaultValue;
    },
  };
}
