/**
 * What the gateway knows about one typed object type once its SDL is validated: the model every other
 * part of `src/typed/` (type definitions, resolvers, value checks, filters, inputs) is built from.
 */
import type { ObjectTypeDefinitionNode } from 'graphql';
import type { CachePolicy } from '../../config/cache-settings.ts';
import type { DerivedNames } from './derive-names.ts';

/** The scalars a typed field may declare. */
export const FIELD_SCALARS = [
  'ID',
  'String',
  'Int',
  'Long',
  'Float',
  'Boolean',
  'DateTime',
  'JSON',
  'JSONObject',
] as const;

/** One of {@link FIELD_SCALARS}. */
export type FieldScalar = (typeof FIELD_SCALARS)[number];

/** Whether a GraphQL type name is one of {@link FIELD_SCALARS}. */
export function isFieldScalar(name: string): name is FieldScalar {
  return (FIELD_SCALARS as readonly string[]).includes(name);
}

/** A value field's declared GraphQL type: a scalar or a list, each level nullable or not. */
export type TypeRef =
  { kind: 'scalar'; name: FieldScalar; nonNull: boolean } | { kind: 'list'; of: TypeRef; nonNull: boolean };

/** One field of a typed object type. */
export type FieldSpec =
  /** `id: ID!`, the upstream's `_id`. */
  | { kind: 'id'; name: 'id' }
  /** A value read from `path` (dotted) of the record and checked against `type`. */
  | { kind: 'value'; name: string; path: string; type: TypeRef }
  /** A reference: the record at `path` holds the id of an object of the typed type `target`. */
  | { kind: 'ref'; name: string; path: string; target: string };

/** Where a definition was written: shown in start-up errors. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** One validated `@dataObject` type. */
export interface ObjectTypeSpec {
  /** The GraphQL type name, `LoanType`. */
  typeName: string;
  /** The upstream's `objectName`, `com.example.LoanType`. */
  objectName: string;
  /** Every generated name (query and mutation fields, input and connection types). */
  names: DerivedNames;
  /** The fields in declaration order, `id` included. */
  fields: FieldSpec[];
  /** Where the type was declared. */
  location: SourceLocation;
  /** The definition as written (descriptions and directives kept), printed into the schema. */
  definition: ObjectTypeDefinitionNode;
  /** Its `@cacheControl`, when it declares a `maxAge` above 0: the response cache's policy of {@link objectName}. */
  cache?: CachePolicy;
}

/** The fields a `where` can filter on: `id`, scalar values other than JSON, and references. */
export function isFilterable(field: FieldSpec): boolean {
  if (field.kind !== 'value') return true;
  return field.type.kind === 'scalar' && field.type.name !== 'JSON' && field.type.name !== 'JSONObject';
}

/** The GraphQL text of a type reference, `[String!]!`. */
export function printTypeRef(type: TypeRef): string {
  const inner = type.kind === 'scalar' ? type.name : `[${printTypeRef(type.of)}]`;
  return type.nonNull ? `${inner}!` : inner;
}
