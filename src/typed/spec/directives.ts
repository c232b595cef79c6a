/**
 * The directives of the typed object SDL: their definitions (part of the served schema, so tools and
 * Sandbox show them) and the checks of their use, which name the file, the line and the fix.
 */
import { Kind, parse, type DirectiveNode, type TypeNode, type ValueNode } from 'graphql';
import { problemAt, type SchemaProblem } from './schema-problem.ts';

/** The definitions, added to the schema whatever the object files hold. */
export const TYPED_DIRECTIVES_SDL = `
"""
Declares a typed view of an upstream object type: the gateway generates the single and page queries, the
save and update mutations, a typed \`where\` and the connection types from it (see the README).
"""
directive @dataObject(
  """
  The upstream's \`objectName\`, for example \`com.example.LoanType\`.
  """
  name: String!
  """
  Name of the single-object query field. Default: the type name with its first word lower-cased (\`loanType\`).
  """
  single: String
  """
  Name of the page query field. Default: the English plural of \`single\` (\`loanTypes\`).
  """
  plural: String
) on OBJECT

"""
A reference to another typed object: the record holds its id at the dotted path \`field\`. Resolved through the
batching loader; a reference to a missing object is \`null\`.
"""
directive @ref(
  """
  Dotted path of the referencing id in the record, for example \`customer.id\`.
  """
  field: String!
) on FIELD_DEFINITION

"""
Reads (and writes) the field at a dotted path of the record instead of the record field of the same name.
"""
directive @field(
  """
  Dotted path in the record, for example \`address.city\`.
  """
  path: String!
) on FIELD_DEFINITION

"""
Who may be served a cached read: \`PRIVATE\`, the account that read it; \`PUBLIC\`, every account of the same
organization and application.
"""
enum CacheControlScope {
  PUBLIC
  PRIVATE
}

"""
Apollo's cache hint, on a typed object type: the gateway's response cache (\`CACHE=on\`) keeps its upstream reads
for \`maxAge\` seconds, for \`scope\` (default \`PRIVATE\`). Without it (or with \`maxAge: 0\`) the type is never
cached. \`CACHE_POLICIES\` overrides it per object name.
"""
directive @cacheControl(maxAge: Int, scope: CacheControlScope) on OBJECT
`;

/** Where a directive may appear, in GraphQL's location names. */
export type DirectiveLocationName = 'OBJECT' | 'FIELD_DEFINITION';

/** A directive the object SDL may use, and its arguments (a string, an `Int` or one of an enum's values). */
export interface DirectiveSpec {
  name: string;
  locations: string[];
  args: { name: string; required: boolean; type: string }[];
}

/** The enums of {@link TYPED_DIRECTIVES_SDL}, by name: the values an enum argument may take. */
const ENUM_VALUES: ReadonlyMap<string, readonly string[]> = new Map(
  parse(TYPED_DIRECTIVES_SDL).definitions.flatMap((definition) =>
    definition.kind === Kind.ENUM_TYPE_DEFINITION
      ? [[definition.name.value, (definition.values ?? []).map((v) => v.name.value)] as const]
      : [],
  ),
);

/** The named type of an argument definition, `String` of `String!`. */
function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

/** The directives allowed in object files: ours, read from {@link TYPED_DIRECTIVES_SDL}, and `@deprecated`. */
export function typedDirectiveSpecs(): Map<string, DirectiveSpec> {
  const specs = new Map<string, DirectiveSpec>();
  for (const definition of parse(TYPED_DIRECTIVES_SDL).definitions) {
    if (definition.kind !== Kind.DIRECTIVE_DEFINITION) continue;
    specs.set(definition.name.value, {
      name: definition.name.value,
      locations: definition.locations.map((l) => l.value),
      args: (definition.arguments ?? []).map((a) => ({
        name: a.name.value,
        required: a.type.kind === Kind.NON_NULL_TYPE,
        type: namedType(a.type),
      })),
    });
  }
  specs.set('deprecated', {
    name: 'deprecated',
    locations: ['FIELD_DEFINITION'],
    args: [{ name: 'reason', required: false, type: 'String' }],
  });
  return specs;
}

/** `@ref(field: String!)`: how a directive is written, for fixes. */
function signatureOf(spec: DirectiveSpec): string {
  const args = spec.args.map((a) => `${a.name}: ${a.type}${a.required ? '!' : ''}`);
  return `@${spec.name}(${args.join(', ')})`;
}

/** The text of `value` when it is one `type` takes (a non-empty string, a whole number, an enum's value). */
function argumentText(value: ValueNode, type: string): string | undefined {
  const values = ENUM_VALUES.get(type);
  if (values !== undefined)
    return value.kind === Kind.ENUM && values.includes(value.value) ? value.value : undefined;
  if (type === 'Int') return value.kind === Kind.INT ? value.value : undefined;
  return value.kind === Kind.STRING && value.value.trim() !== '' ? value.value : undefined;
}

/** How a value of `type` is written, for fixes. */
function writtenAs(type: string): string {
  const values = ENUM_VALUES.get(type);
  if (values !== undefined) return `one of ${values.join(', ')} (unquoted)`;
  return type === 'Int' ? 'a whole number' : 'a quoted value';
}

function allowedAt(specs: Map<string, DirectiveSpec>, location: DirectiveLocationName): string {
  const allowed = [...specs.values()].filter((s) => s.locations.includes(location)).map(signatureOf);
  return `${location === 'OBJECT' ? 'on a type' : 'on a field'}, use ${allowed.join(' or ')}`;
}

/**
 * The arguments of each directive on a definition, as text, checked against `specs`: unknown directives or
 * arguments, a directive in the wrong place or used twice, missing required arguments and values not of
 * their type (a non-empty string, a whole number, an enum's value) are reported to `problems`. `owner` names the type or field in messages.
 */
export function readDirectives(
  directives: readonly DirectiveNode[] | undefined,
  location: DirectiveLocationName,
  owner: string,
  specs: Map<string, DirectiveSpec>,
  problems: SchemaProblem[],
): Map<string, Record<string, string>> {
  const found = new Map<string, Record<string, string>>();
  for (const directive of directives ?? []) {
    const name = directive.name.value;
    const spec = specs.get(name);
    if (!spec?.locations.includes(location)) {
      const what = spec === undefined ? `unknown directive @${name}` : `@${name} is not allowed here`;
      problems.push(problemAt(directive, `${owner}: ${what}.`, `${allowedAt(specs, location)}.`));
      continue;
    }
    if (found.has(name)) {
      problems.push(problemAt(directive, `${owner}: @${name} is used twice.`, `keep one @${name}.`));
      continue;
    }
    const values: Record<string, string> = {};
    for (const arg of directive.arguments ?? []) {
      const argName = arg.name.value;
      if (!spec.args.some((a) => a.name === argName)) {
        problems.push(
          problemAt(
            arg,
            `${owner}: @${name} has no argument "${argName}".`,
            `write ${signatureOf(spec)}; remove "${argName}".`,
          ),
        );
      } else if (Object.hasOwn(values, argName)) {
        problems.push(problemAt(arg, `${owner}: "${argName}" is given twice.`, `give "${argName}" once.`));
      } else {
        const type = spec.args.find((a) => a.name === argName)?.type ?? 'String';
        const text = argumentText(arg.value, type);
        if (text !== undefined) {
          values[argName] = text;
        } else if (type === 'String') {
          problems.push(
            problemAt(
              arg.value,
              `${owner}: @${name}(${argName}:) must be a non-empty string.`,
              `write ${argName}: "…" with a quoted value.`,
            ),
          );
        } else {
          problems.push(
            problemAt(
              arg.value,
              `${owner}: @${name}(${argName}:) must be ${writtenAs(type)}.`,
              `write ${argName}: with ${writtenAs(type)}.`,
            ),
          );
        }
      }
    }
    for (const required of spec.args.filter((a) => a.required)) {
      if (!(directive.arguments ?? []).some((a) => a.name.value === required.name)) {
        problems.push(
          problemAt(
            directive,
            `${owner}: @${name} needs its "${required.name}" argument.`,
            `write ${signatureOf(spec)}.`,
          ),
        );
      }
    }
    found.set(name, values);
  }
  return found;
}
