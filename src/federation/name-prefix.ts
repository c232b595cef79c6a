/**
 * `FEDERATION_NAME_PREFIX`: the gateway's own root fields and types that another subgraph commonly defines
 * too (an accounts subgraph's `Query.me: User`, `login`, `Session`; a generic `FilterInput` or
 * `SavePayload`) renamed with a prefix, so the subgraph composes beside it: with `Objects`, `me` →
 * `objectsMe`, `login` → `objectsLogin`, `User` → `ObjectsUser`, `FilterInput` → `ObjectsFilterInput`.
 * Renamed in the SDL before the schema is built and in the resolver maps' keys, so every resolver keeps
 * working under its new name. Not renamed: the entities (the typed object types and `DataObject`, meant to
 * be shared) and the types named after them (`CustomerWhere`, `CustomerConnection`), `PageInfo` and the
 * connection types (`@shareable`), the scalars (identical scalars compose), the typed API's root fields, and
 * `ObjectMetadata` (the upstream-call estimate finds the metadata fields by it).
 */
import { visit, type DocumentNode, type FieldDefinitionNode, type NameNode } from 'graphql';
import { SHARED_FILTER_TYPES } from '../typed/build-type-defs.ts';

/** The root fields renamed, by root type. */
const PREFIXED_ROOT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Query: ['me', 'object', 'objects', 'metadata'],
  Mutation: ['login', 'logout'],
};

/**
 * The types renamed: the session API's (every accounts subgraph has them), and the generic API's and the
 * typed filters' types whose names say nothing of this gateway.
 */
const PREFIXED_TYPES: readonly string[] = [
  'Session',
  'User',
  'LoginPayload',
  'LoginMethod',
  'SavePayload',
  'UpdatePayload',
  'FilterInput',
  'CriterionInput',
  'FilterOperator',
  ...SHARED_FILTER_TYPES,
];

/** `objectsMe` for `me` under `Objects`. */
export function prefixedFieldName(prefix: string, field: string): string {
  return `${prefix.charAt(0).toLowerCase()}${prefix.slice(1)}${field.charAt(0).toUpperCase()}${field.slice(1)}`;
}

const renamed = (node: NameNode, value: string): NameNode => ({ ...node, value });

/** The SDL with the types of {@link PREFIXED_TYPES} and the root fields of {@link PREFIXED_ROOT_FIELDS} renamed. */
export function prefixTypeDefs(document: DocumentNode, prefix: string): DocumentNode {
  const types = new Set(PREFIXED_TYPES);
  const typeName = (node: NameNode) =>
    types.has(node.value) ? renamed(node, `${prefix}${node.value}`) : node;
  const rootFields = (rootName: string, fields: readonly FieldDefinitionNode[] | undefined) => {
    const names = new Set(PREFIXED_ROOT_FIELDS[rootName] ?? []);
    return fields?.map((field) =>
      names.has(field.name.value)
        ? { ...field, name: renamed(field.name, prefixedFieldName(prefix, field.name.value)) }
        : field,
    );
  };
  return visit(document, {
    NamedType: (node) => ({ ...node, name: typeName(node.name) }),
    EnumTypeDefinition: (node) => ({ ...node, name: typeName(node.name) }),
    InputObjectTypeDefinition: (node) => ({ ...node, name: typeName(node.name) }),
    UnionTypeDefinition: (node) => ({ ...node, name: typeName(node.name) }),
    ObjectTypeDefinition: (node) => ({
      ...node,
      name: typeName(node.name),
      fields: rootFields(node.name.value, node.fields),
    }),
    ObjectTypeExtension: (node) => ({ ...node, fields: rootFields(node.name.value, node.fields) }),
  });
}

/** A resolver map: type name → field or scalar resolvers. */
type ResolverMap = Record<string, unknown>;

/** The resolver maps with the same renames as {@link prefixTypeDefs}. */
export function prefixResolvers<T extends object>(maps: readonly T[], prefix: string): T[] {
  const types = new Set(PREFIXED_TYPES);
  return maps.map((map) => {
    const entries = Object.entries(map as ResolverMap).map(([type, fields]): [string, unknown] => {
      const names = new Set(PREFIXED_ROOT_FIELDS[type] ?? []);
      if (names.size > 0 && typeof fields === 'object' && fields !== null) {
        const renamedFields = Object.entries(fields as ResolverMap).map(
          ([field, resolver]): [string, unknown] => [
            names.has(field) ? prefixedFieldName(prefix, field) : field,
            resolver,
          ],
        );
        return [type, Object.fromEntries(renamedFields)];
      }
      return [types.has(type) ? `${prefix}${type}` : type, fields];
    });
    return Object.fromEntries(entries) as T;
  });
}
