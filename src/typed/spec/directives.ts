/**
 * The directives of the typed object SDL: their definitions (part of the served schema, so tools and
 * Sandbox show them) and the checks of their use, which name the file, the line and the fix.
 */
import { Kind, parse, type DirectiveNode } from 'graphql';
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
`;

/** Where a directive may appear, in GraphQL's location names. */
export type DirectiveLocationName = 'OBJECT' | 'FIELD_DEFINITION';

/** A directive the object SDL may use, and its (string) arguments. */
export interface DirectiveSpec {
  name: string;
  locations: string[];
  args: { name: string; required: boolean }[];
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
      })),
    });
  }
  specs.set('deprecated', {
    name: 'deprecated',
    locations: ['FIELD_DEFINITION'],
    args: [{ name: 'reason', required: false }],
  });
  return specs;
}

/** `@ref(field: String!)`: how a directive is written, for fixes. */
function signatureOf(spec: DirectiveSpec): string {
  const args = spec.args.map((a) => `${a.name}: String${a.required ? '!' : ''}`);
  return `@${spec.name}(${args.join(', ')})`;
}

function allowedAt(specs: Map<string, DirectiveSpec>, location: DirectiveLocationName): string {
  const allowed = [...specs.values()].filter((s) => s.locations.includes(location)).map(signatureOf);
  return `${location === 'OBJECT' ? 'on a type' : 'on a field'}, use ${allowed.join(' or ')}`;
}

/**
 * The string arguments of each directive on a definition, checked against `specs`: unknown directives or
 * arguments, a directive in the wrong place or used twice, missing required arguments and values that are
 * not non-empty strings are reported to `problems`. `owner` names the type or field in messages.
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
      } else if (arg.value.kind !== Kind.STRING || arg.value.value.trim() === '') {
        problems.push(
          problemAt(
            arg.value,
            `${owner}: @${name}(${argName}:) must be a non-empty string.`,
            `write ${argName}: "…" with a quoted value.`,
          ),
        );
      } else {
        values[argName] = arg.value.value;
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
