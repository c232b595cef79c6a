/**
 * Documents and variables generated from a schema with a seeded generator: the same seed gives the same
 * corpus. Queries pick root fields and, under them, fields with aliases, arguments (as literals or as
 * variables), inline fragments on every abstract type's members, named fragments, `__typename` and
 * `@include`/`@skip`; argument values come from pools that find records, miss them, and break the rules the
 * gateway checks, so the answers hold data, `null`s and errors. Variables of any operation are made the
 * same way ({@link variablesFor}).
 */
import { createRequire } from 'node:module';
import type * as graphql from 'graphql';
import type {
  GraphQLArgument,
  GraphQLField,
  GraphQLInputType,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';

/** The schema is built by the CommonJS copy of graphql-js (through graphql-tools): read it with that one. */
const g = createRequire(import.meta.url)('graphql') as typeof graphql;

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** The values arguments and variables are drawn from. */
export interface ValuePools {
  /** Ids of records that exist, and some that do not. */
  ids: string[];
  objectNames: string[];
  /** Record field names and paths (`name`, `customer.name`). */
  fieldNames: string[];
  /** Federation's entity representations (`_Any`), some of them naming nothing. */
  representations: unknown[];
}

const STRINGS = ['', 'a', 'Home', 'x.*', '^H.*', '9007199254740993', 'not a cursor'];
const SCALAR_VALUES: Record<string, readonly unknown[]> = {
  Int: [0, 1, 2, 3, 5, -1],
  Float: [0, 1.5, -2, 3],
  Boolean: [true, false],
  JSON: [1, 'x', { a: 1 }, [1, 2], 9_007_199_254_740_991, { nested: { b: [true, null] } }],
  JSONObject: [{ a: 1 }, {}, { name: 'Generated', rate: 2.5 }, { loanType: 'Gen', description: null }],
  Long: ['9007199254740993', '1', 'x', 5],
  DateTime: ['2024-01-15T00:00:00Z', '2024-01-15', 'yesterday'],
};

/** A value for an argument or variable of `type` named `name`. */
function valueOf(
  type: GraphQLInputType,
  name: string,
  pools: ValuePools,
  random: Random,
  depth = 0,
): unknown {
  if (g.isNonNullType(type)) return valueOf(type.ofType, name, pools, random, depth);
  if (random() < 0.04) return null;
  if (g.isListType(type)) {
    const length = Math.floor(random() * 3);
    return Array.from({ length }, () => valueOf(type.ofType, name, pools, random, depth + 1));
  }
  if (g.isEnumType(type)) return pick(random, type.getValues()).name;
  if (g.isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter(
      (field) => g.isNonNullType(field.type) || (depth < 2 && random() < 0.35),
    );
    return Object.fromEntries(
      fields.map((field) => [field.name, valueOf(field.type, field.name, pools, random, depth + 1)]),
    );
  }
  const scalar = type.name;
  if (scalar === '_Any') return pick(random, pools.representations);
  if (/objectName/i.test(name)) return pick(random, pools.objectNames);
  if (scalar === 'ID' || /^(id|ids|after|before)$/i.test(name)) return pick(random, pools.ids);
  if (/^(first|last)$/.test(name)) return pick(random, [1, 2, 3, 5, 0, -1]);
  if (/fieldName|path/i.test(name)) return pick(random, pools.fieldNames);
  const values = SCALAR_VALUES[scalar];
  if (values !== undefined) return pick(random, values);
  return pick(random, STRINGS);
}

/** The GraphQL literal of a value made by {@link valueOf}, as the argument's type reads it. */
function literalOf(value: unknown, type: GraphQLInputType): string {
  if (value === null) return 'null';
  const named = g.getNamedType(type);
  if (Array.isArray(value)) {
    const item = g.isNonNullType(type) ? type.ofType : type;
    const itemType = g.isListType(item) ? item.ofType : item;
    return `[${value.map((v) => literalOf(v, itemType)).join(', ')}]`;
  }
  if (g.isEnumType(named) && typeof value === 'string') return value;
  if (typeof value === 'object') {
    const fields = g.isInputObjectType(named) ? named.getFields() : undefined;
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, v]) => `${key}: ${literalOf(v, fields?.[key]?.type ?? named)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** Values for the variables an operation declares (each required one, most optional ones). */
export function variablesFor(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  pools: ValuePools,
  random: Random,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const type = g.typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type === undefined) continue;
    if (!g.isNonNullType(type) && random() < 0.2) continue;
    variables[definition.variable.name.value] = valueOf(type, definition.variable.name.value, pools, random);
  }
  return variables;
}

/** One generated request. */
export interface GeneratedRequest {
  text: string;
  variables: Record<string, unknown>;
}

/** Builds one document: its variables, fragments and selections. */
class DocumentBuilder {
  private readonly variableDefinitions: string[] = [];
  readonly variables: Record<string, unknown> = {};
  private readonly fragments: string[] = [];
  private count = 0;

  private readonly schema: GraphQLSchema;
  private readonly pools: ValuePools;
  private readonly random: Random;

  constructor(schema: GraphQLSchema, pools: ValuePools, random: Random) {
    this.schema = schema;
    this.pools = pools;
    this.random = random;
  }

  private next(prefix: string): string {
    this.count += 1;
    return `${prefix}${this.count}`;
  }

  private argument(arg: GraphQLArgument): string | undefined {
    if (!g.isNonNullType(arg.type) && this.random() > 0.35) return undefined;
    const value = valueOf(arg.type, arg.name, this.pools, this.random);
    const named = g.getNamedType(arg.type);
    // Custom scalars' literals take another path (graphql-js answers them): half of them travel as variables.
    const custom = g.isScalarType(named) && !g.isSpecifiedScalarType(named);
    const asVariable = this.random() < (custom ? 0.5 : 0.35);
    if (!asVariable) return `${arg.name}: ${literalOf(value, arg.type)}`;
    const name = this.next('v');
    this.variableDefinitions.push(`$${name}: ${String(arg.type)}`);
    this.variables[name] = value;
    return `${arg.name}: $${name}`;
  }

  /** A field with its arguments and selection; `depth` 1 is a root field (aliased by the caller). */
  field(field: GraphQLField<unknown, unknown>, depth: number): string {
    const alias = depth > 1 && this.random() < 0.2 ? `${this.next('a')}: ` : '';
    const args = field.args.flatMap((arg) => this.argument(arg) ?? []);
    const directive =
      this.random() < 0.06
        ? ` @${pick(this.random, ['include', 'skip'])}(if: ${String(this.random() < 0.5)})`
        : '';
    const head = `${alias}${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${directive}`;
    const named = g.getNamedType(field.type);
    if (g.isLeafType(named)) return head;
    return `${head} { ${this.selection(named, depth + 1)} }`;
  }

  /** Fields of an object or interface type, some in fragments; members' fragments for an abstract type. */
  selection(type: GraphQLNamedType, depth: number): string {
    const parts: string[] = [];
    if (g.isObjectType(type) || g.isInterfaceType(type)) {
      const fields = Object.values(type.getFields());
      const leaves = fields.filter((f) => g.isLeafType(g.getNamedType(f.type)));
      const wanted = depth >= 4 ? leaves : fields;
      const n = 1 + Math.floor(this.random() * Math.min(4, wanted.length));
      for (let i = 0; i < n; i += 1) parts.push(this.field(pick(this.random, wanted), depth));
      if (this.random() < 0.25 && g.isObjectType(type)) {
        const fragment = this.next('F');
        this.fragments.push(
          `fragment ${fragment} on ${type.name} { ${this.field(pick(this.random, wanted), depth)} }`,
        );
        parts.push(`...${fragment}`);
      }
    }
    if (g.isAbstractType(type)) {
      for (const member of this.schema.getPossibleTypes(type)) {
        if (this.random() < 0.6) parts.push(`... on ${member.name} { ${this.selection(member, depth)} }`);
      }
    }
    if (parts.length === 0 || this.random() < 0.3) parts.push('__typename');
    return parts.join(' ');
  }

  document(selection: string): string {
    const variables = this.variableDefinitions.length > 0 ? `(${this.variableDefinitions.join(', ')})` : '';
    return [`query Generated${variables} { ${selection} }`, ...this.fragments].join('\n');
  }
}

/** Queries over the introspection types, beside the generated ones (the limits refuse the deepest). */
function introspectionQueries(schema: GraphQLSchema, random: Random): string[] {
  const typeName = pick(random, Object.keys(schema.getTypeMap()));
  return [
    '{ __schema { queryType { name } mutationType { name } types { name kind } } }',
    `{ __type(name: "${typeName}") { name kind description fields(includeDeprecated: true) { name args { name defaultValue type { name kind ofType { name kind } } } type { name kind ofType { name kind } } } interfaces { name } possibleTypes { name } enumValues { name } inputFields { name defaultValue } } }`,
    '{ __schema { directives { name locations args { name } } } }',
    '{ __typename }',
  ];
}

/** `count` generated queries over the schema's query root (and a few introspection queries). */
export function generateRequests(
  schema: GraphQLSchema,
  pools: ValuePools,
  seed: number,
  count: number,
): GeneratedRequest[] {
  const random = seededRandom(seed);
  const query = schema.getQueryType();
  if (query === null || query === undefined) return [];
  const roots = Object.values(query.getFields());
  const requests: GeneratedRequest[] = introspectionQueries(schema, random).map((text) => ({
    text,
    variables: {},
  }));
  for (let i = 0; i < count; i += 1) {
    const builder = new DocumentBuilder(schema, pools, random);
    const fields = 1 + Math.floor(random() * 2);
    const selections: string[] = [];
    // Each root field under its own alias: two picks of one field with other arguments cannot merge.
    for (let f = 0; f < fields; f += 1)
      selections.push(`r${String(f)}: ${builder.field(pick(random, roots), 1)}`);
    requests.push({ text: builder.document(selections.join(' ')), variables: builder.variables });
  }
  return requests;
}
