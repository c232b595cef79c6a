/** Prints an inferred object type as a `schema/objects/*.graphql` file. Pure. */
import type { InferredField } from './infer-fields.ts';

/** What the file says about where its fields came from. */
export interface SampleInfo {
  objectName: string;
  typeName: string;
  /** `--type-name`, when the command was given one: the header repeats it. */
  typeNameOption?: string | undefined;
  /** Records read. */
  sampled: number;
  /** All records of the type the upstream counted. */
  total: number;
  /** `YYYY-MM-DD`. */
  date: string;
}

/** A GraphQL block string; `"""` inside is escaped. */
const block = (text: string, indent: string): string =>
  `${indent}"""\n${indent}${text.replaceAll('"""', '\\"""')}\n${indent}"""`;

/** The type name for an object name: its last segment (`com.acme.Invoice` → `Invoice`). */
export function typeNameOf(objectName: string): string {
  const last = objectName.split('.').at(-1) ?? objectName;
  const cleaned = last.replace(/[^_A-Za-z0-9]/g, '');
  const named = /^[_A-Za-z]/.test(cleaned) ? cleaned : `T${cleaned}`;
  return named.charAt(0).toUpperCase() + named.slice(1);
}

/** The SDL file: a header comment, the type with its description, `id: ID!`, then the inferred fields. */
export function printObjectType(info: SampleInfo, fields: readonly InferredField[]): string {
  const lines = [
    `# Inferred by \`npm run objects:infer -- ${info.objectName}${info.typeNameOption === undefined ? '' : ` --type-name ${info.typeNameOption}`}\` on ${info.date} from ${info.sampled} sampled`,
    `# records (of ${info.total}). Review it: a sample cannot prove a field is always there, nor its type.`,
    block(`\`${info.objectName}\`, as ${info.sampled} sampled records showed it.`, ''),
    `type ${info.typeName} @dataObject(name: ${JSON.stringify(info.objectName)}) {`,
    '  id: ID!',
  ];
  for (const field of fields) {
    const directive =
      field.refPath !== undefined
        ? ` @ref(field: ${JSON.stringify(field.refPath)})`
        : field.path !== undefined
          ? ` @field(path: ${JSON.stringify(field.path)})`
          : '';
    lines.push(
      block(field.description, '  '),
      `  ${field.name}: ${field.type}${field.nonNull ? '!' : ''}${directive}`,
    );
  }
  lines.push('}', '');
  return lines.join('\n');
}
