/**
 * graphql-scalars' `JSON` and `JSONObject`, except that a whole number past 2^53 written in the document
 * (`data: { entryNo: 9007199254740993 }`) keeps its digits: the library reads every number literal with
 * `parseFloat`, which rounds it to …992 before the save is sent. Such a literal becomes an `ExactNumber`
 * (`exact-json.ts`), written upstream digit for digit, as the same number in the variables is
 * (`exact-numbers-hook.ts`). Everything else is the library's: serialising, variables, the other literals.
 */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import { isLongLiteral } from '../upstream/dialect/exact-json.ts';

type Variables = Readonly<Record<string, unknown>> | null | undefined;

/** A JSON value literal as graphql-scalars reads it, long literals kept exact. */
function readLiteral(node: ValueNode, variables: Variables): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return isLongLiteral(node.value) && !Number.isSafeInteger(Number(node.value))
        ? JSON.rawJSON(node.value)
        : parseFloat(node.value);
    case Kind.OBJECT:
      return readObject(node, variables);
    case Kind.LIST:
      return node.values.map((value) => readLiteral(value, variables));
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

/** An object literal, prototype-less as the library makes it (a field named `__proto__` stays a field). */
function readObject(node: ValueNode, variables: Variables): Record<string, unknown> {
  if (node.kind !== Kind.OBJECT) throw new TypeError('JSONObject cannot represent a non-object value.');
  const value = Object.create(null) as Record<string, unknown>;
  for (const field of node.fields) value[field.name.value] = readLiteral(field.value, variables);
  return value;
}

/** `JSON`, long literals kept exact. */
export const ExactJSONResolver = new GraphQLScalarType({
  ...JSONResolver.toConfig(),
  parseLiteral: (node, variables) => readLiteral(node, variables),
});

/** `JSONObject`, long literals kept exact. */
export const ExactJSONObjectResolver = new GraphQLScalarType({
  ...JSONObjectResolver.toConfig(),
  parseLiteral: (node, variables) => readObject(node, variables),
});
