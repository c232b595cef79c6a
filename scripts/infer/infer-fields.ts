/**
 * Turns the counts of `field-stats.ts` into the fields of an object type: GraphQL types from the kinds of
 * value seen, `@field(path:)` for nested values, `@ref` for ids of other types (as checked by the caller),
 * and a description saying how often each field was present. Pure.
 */
import type { FieldStats, ValueKind } from './field-stats.ts';

/** One field of the inferred type. */
export interface InferredField {
  name: string;
  /** The GraphQL type without `!`: `String`, `[Int]`, `JSON`, or the referenced type's name. */
  type: string;
  nonNull: boolean;
  /** The record path when it is not the field's own name (`address.city`). */
  path: string | undefined;
  /** For a reference: the record path holding the id. */
  refPath: string | undefined;
  description: string;
}

/** A field found to hold ids of another type: its path, the type, and how many sampled ids were found. */
export interface FoundRef {
  path: string;
  typeName: string;
  checked: number;
}

const SCALAR_OF: Partial<Record<ValueKind, string>> = {
  string: 'String',
  int: 'Int',
  wide: 'Float',
  float: 'Float',
  long: 'Long',
  exact: 'JSON',
  boolean: 'Boolean',
  object: 'JSONObject',
};

const NUMBER_KINDS: ReadonlySet<ValueKind> = new Set(['int', 'wide', 'float', 'long', 'exact']);

/**
 * The one number type that holds every number kind seen exactly: `Int`, else `Float` (fractions and whole
 * numbers up to 2^53), else `Long` (whole numbers past 2^53 with no fraction beside them), else `JSON`,
 * which serves any number with its digits. Never a type that would round a value it was shown.
 */
function unifyNumbers(seen: readonly ValueKind[]): string {
  if (seen.includes('exact') || (seen.includes('long') && seen.includes('float'))) return 'JSON';
  if (seen.includes('long')) return 'Long';
  return seen.includes('float') || seen.includes('wide') ? 'Float' : 'Int';
}

/** The one GraphQL type that holds every kind seen, or `JSON`. */
function unify(kinds: Partial<Record<ValueKind, number>>): string | undefined {
  const seen = Object.keys(kinds) as ValueKind[];
  if (seen.length === 0) return undefined;
  if (seen.every((k) => NUMBER_KINDS.has(k))) return unifyNumbers(seen);
  if (seen.length === 1) return SCALAR_OF[seen[0] ?? 'mixedList'];
  return 'JSON';
}

function typeOf(stats: FieldStats): string {
  const kinds = Object.keys(stats.kinds);
  if (kinds.length === 1 && kinds[0] === 'list') return `[${unify(stats.elementKinds) ?? 'JSON'}]`;
  return kinds.includes('list') ? 'JSON' : (unify(stats.kinds) ?? 'JSON');
}

/** Whether a path's name says it holds an id (`id`, `customerId`, `customer_id`). */
export function looksLikeIdPath(segments: readonly string[]): boolean {
  const last = segments.at(-1) ?? '';
  return /^_?id$/i.test(last) || /[a-z](Id|ID|_id)$/.test(last);
}

const camel = (words: readonly string[]): string =>
  words
    .flatMap((w) => w.split(/[^A-Za-z0-9]+/))
    .filter((w) => w !== '')
    .map((w, i) =>
      i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join('');

const validName = (name: string): string => (/^[_A-Za-z]/.test(name) ? name : `f${name}`);

/** The field name of a reference: its path without the id part (`customer.id` → `customer`). */
function refName(segments: readonly string[]): string {
  const last = segments.at(-1) ?? '';
  if (/^_?id$/i.test(last) && segments.length > 1) return camel(segments.slice(0, -1));
  return camel([...segments.slice(0, -1), last.replace(/(Id|ID|_id)$/, '')]);
}

const percent = (part: number, whole: number): string => `${Math.round((part / whole) * 100)} %`;

/** The fields of the type, in the order the records first showed them. */
export function inferFields(
  stats: readonly FieldStats[],
  sampled: number,
  refs: readonly FoundRef[],
): InferredField[] {
  const refByPath = new Map(refs.map((r) => [r.path, r]));
  // A nested object holding a reference: its other leaves are copies, read through the reference.
  const refParents = refs.map((r) => r.path.split('.').slice(0, -1).join('.')).filter((p) => p !== '');
  const shadowed = (path: string) => !refByPath.has(path) && refParents.some((p) => path.startsWith(`${p}.`));
  const kept = stats.filter((s) => !shadowed(s.path));
  const lastCounts = new Map<string, number>();
  for (const s of kept)
    lastCounts.set(s.segments.at(-1) ?? '', (lastCounts.get(s.segments.at(-1) ?? '') ?? 0) + 1);
  const topLevel = new Set(kept.filter((s) => s.segments.length === 1).map((s) => s.path));
  const used = new Set<string>(['id']);

  return kept.map((s) => {
    const seen = `Present in ${s.present} of ${sampled} sampled records (${percent(s.present, sampled)}).`;
    const ref = refByPath.get(s.path);
    let name: string;
    if (ref) name = refName(s.segments);
    else if (s.segments.length === 1) name = camel(s.segments);
    else {
      const last = s.segments.at(-1) ?? '';
      const unique = lastCounts.get(last) === 1 && !topLevel.has(last) && !/^_?id$/i.test(last);
      name = unique ? camel([last]) : camel(s.segments);
    }
    name = validName(name);
    while (used.has(name) || name === 'metadata') name = `${name}Field`;
    used.add(name);
    if (ref) {
      const copies = stats.filter(
        (o) => shadowed(o.path) && o.path.startsWith(`${ref.path.split('.').slice(0, -1).join('.')}.`),
      );
      const copied =
        copies.length > 0
          ? ` The record also copies ${copies.map((c) => `\`${c.path}\``).join(', ')}: read ${copies.length === 1 ? 'it' : 'them'} through this reference.`
          : '';
      return {
        name,
        type: ref.typeName,
        nonNull: false,
        path: undefined,
        refPath: ref.path,
        description: `The ${ref.typeName} whose id is at \`${ref.path}\` (all ${ref.checked} distinct sampled ids found). ${seen}${copied}`,
      };
    }
    const type = typeOf(s);
    // Required only for what looks like the record's own key: a text always present and never repeated.
    const key =
      type === 'String' &&
      sampled > 1 &&
      s.present === sampled &&
      !s.distinctOverflow &&
      s.distinct.size === sampled;
    return {
      name,
      type,
      nonNull: key,
      path: name === s.path ? undefined : s.path,
      refPath: undefined,
      description: key ? `${seen} Always present and never repeated, so required.` : seen,
    };
  });
}
