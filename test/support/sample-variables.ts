/**
 * Variables that fit an operation: the ones given, and a plain value for every other required variable
 * (inputs filled with their required fields only), so an operation can be estimated at any page size
 * without writing its variables by hand.
 */
import {
  Kind,
  print,
  type DocumentNode,
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

const SCALARS: Record<string, unknown> = { Int: 1, Float: 1, Boolean: true, JSON: 1, JSONObject: { a: 1 } };

/** Duck-typed by class tag: the schema's graphql-js copy is not this file's under vitest (see src/errors/format-error.ts). */
const tagged = (type: unknown, tag: string): boolean =>
  Object.prototype.toString.call(type) === `[object ${tag}]`;
const isEnum = (type: GraphQLNamedType | undefined): type is GraphQLEnumType =>
  tagged(type, 'GraphQLEnumType');
const isInput = (type: GraphQLNamedType | undefined): type is GraphQLInputObjectType =>
  tagged(type, 'GraphQLInputObjectType');

/** A value of the type printed as `typeText` (`String!`, `[ID!]`, `LoanTypeInput!`). */
function sample(schema: GraphQLSchema, typeText: string): unknown {
  if (typeText.startsWith('[')) return [];
  const type = schema.getType(typeText.replace(/!$/, ''));
  if (isEnum(type)) return type.getValues()[0]?.name;
  if (isInput(type)) {
    const required = Object.values(type.getFields()).filter((field) => String(field.type).endsWith('!'));
    return Object.fromEntries(required.map((field) => [field.name, sample(schema, String(field.type))]));
  }
  return type === undefined ? undefined : (SCALARS[type.name] ?? 'x');
}

/** `given`, plus a value for each required variable of the operation `operationName` that it leaves out. */
export function sampleVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const operation = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operationName,
  );
  const variables: Record<string, unknown> = {};
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return variables;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (Object.hasOwn(given, name)) variables[name] = given[name];
    else if (definition.type.kind === Kind.NON_NULL_TYPE)
      variables[name] = sample(schema, print(definition.type));
  }
  return variables;
}
