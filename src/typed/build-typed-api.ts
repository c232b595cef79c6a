/**
 * The typed API: object types declared in SDL files (`schema/objects/*.graphql`) become typed query and
 * mutation fields over the upstream's objects. Read, validated and generated once, at start-up.
 *
 * ```graphql
 * type Order @dataObject(name: "com.example.Order") {
 *   id: ID!
 *   total: Float
 *   customer: Customer @ref(field: "customer.id")
 * }
 * ```
 * gives `order(id)`, `orders(where, first, after, last, before)`, `saveOrder(input)`, `updateOrder(id, input)`
 * (names: `derive-names.ts`). A mistake stops the start with an {@link ObjectSchemaError} naming the file,
 * the line and the fix.
 */
import { buildTypeDefs, SHARED_FILTER_TYPES } from './build-type-defs.ts';
import { buildTypedResolvers, type ExecutableResolvers } from './build-typed-resolvers.ts';
import { TYPED_DIRECTIVES_SDL } from './spec/directives.ts';
import type { ObjectTypeSpec } from './spec/object-type-spec.ts';
import { displayPath, readObjectFiles } from './spec/read-object-files.ts';
import { ObjectSchemaError } from './spec/schema-problem.ts';
import { collectTakenNames, validateObjectTypes } from './spec/validate-object-types.ts';

/** Options of {@link buildTypedApi}. */
export interface TypedApiOptions {
  /** The folder of the object SDL files; a missing folder gives an empty typed API. */
  dir: string;
  /** The generic SDL: generated names must stay clear of its types and root fields. */
  baseTypeDefs: readonly string[];
}

/** What the typed API adds to the schema. */
export interface TypedApi {
  /** One spec per `@dataObject` type, in file order. */
  specs: ObjectTypeSpec[];
  /** The directive definitions, the shared filter inputs and every generated definition. */
  typeDefs: string[];
  /** Resolvers of the generated fields and types. */
  resolvers: ExecutableResolvers;
}

/** Reads, validates and generates the typed API; throws {@link ObjectSchemaError} listing every mistake. */
export function buildTypedApi(options: TypedApiOptions): TypedApi {
  const { files, problems } = readObjectFiles(options.dir);
  const specs = validateObjectTypes(
    files,
    {
      dir: displayPath(options.dir),
      taken: collectTakenNames(options.baseTypeDefs),
      sharedTypeNames: SHARED_FILTER_TYPES,
    },
    problems,
  );
  if (problems.length > 0) {
    const order = (a: (typeof problems)[number], b: (typeof problems)[number]) =>
      a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
    throw new ObjectSchemaError([...problems].sort(order));
  }
  return {
    specs,
    typeDefs: [TYPED_DIRECTIVES_SDL, ...buildTypeDefs(specs)],
    resolvers: buildTypedResolvers(specs),
  };
}
