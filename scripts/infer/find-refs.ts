/**
 * Which sampled fields hold ids of other known object types. A field is a candidate when its name says
 * "id" and names a known type (`customer.id`, `customerId`, `customer_id` → `Customer`): only that type is
 * asked, so the tool never reads a type the records do not point at (the demo types a team's upstream does
 * not have, say). Its distinct sampled values are looked up with one batched `getAll` per 50 ids (`_id`
 * matching their escaped alternation, as the gateway's loaders batch); the field becomes a reference only
 * when every sampled id exists in that type. A type the upstream refuses (`unknown object name`,
 * `ClassNotFoundException`) is reported and not asked again: the field stays a plain value.
 */
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { alternationOf } from '../../src/upstream/pattern-guard/regex-escape.ts';
import type { MatchesMode, UpstreamClient, UpstreamCredentials } from '../../src/upstream/client/types.ts';
import type { FieldStats } from './field-stats.ts';
import { looksLikeIdPath, type FoundRef } from './infer-fields.ts';

/** A type the gateway already knows (from `schema/objects/`). */
export interface KnownType {
  typeName: string;
  objectName: string;
}

/** A known type the upstream refused to read: why, in the upstream's words when it gave them. */
export interface RefusedType {
  objectName: string;
  reason: string;
}

/** Ids per lookup call: keeps each request line well under the upstream's URL limit. */
const IDS_PER_CALL = 50;
/** Ids checked per field and type: a sample, enough to tell ids of one type from anything else. */
const MAX_IDS_CHECKED = 200;

/** What {@link findRefs} needs. */
export interface FindRefsOptions {
  client: Pick<UpstreamClient, 'getAll' | 'getObject'>;
  credentials: UpstreamCredentials;
  matchesMode: MatchesMode;
  knownTypes: readonly KnownType[];
}

/** What {@link findRefs} found: the references, and the known types the upstream refused. */
export interface FoundRefs {
  refs: FoundRef[];
  refused: RefusedType[];
}

async function allExist(
  options: FindRefsOptions,
  objectName: string,
  ids: readonly string[],
): Promise<boolean> {
  const { client, credentials } = options;
  if (options.matchesMode === 'exact') {
    // Plain equality cannot batch: one read per id, so only a few are checked.
    for (const id of ids.slice(0, 10)) {
      const found = await client.getObject(credentials, objectName, [
        { fieldName: '_id', operator: 'matches', value: id },
      ]);
      if (found === null) return false;
    }
    return true;
  }
  for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
    const chunk = ids.slice(start, start + IDS_PER_CALL);
    const criteria = [{ fieldName: '_id', operator: 'matches', value: alternationOf(chunk) }];
    const page = await client.getAll(credentials, objectName, criteria, chunk.length, 0);
    if (page.totalCount !== chunk.length) return false;
  }
  return true;
}

/** Lower case, letters and digits only: `customer_id` and `customerId` both name `customer`. */
const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The name a field's path gives the type it points at: the path without its id part (`customer.id`,
 * `customerId`, `customer_id` → `customer`; `order.customer.id` → `ordercustomer`, then `customer`).
 */
export function namesOfIdPath(segments: readonly string[]): string[] {
  const last = segments.at(-1) ?? '';
  const rest = /^_?id$/i.test(last)
    ? segments.slice(0, -1)
    : [...segments.slice(0, -1), last.replace(/(Id|ID|_id)$/, '')];
  const names: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const name = squash(rest.slice(i).join(''));
    if (name !== '') names.push(name);
  }
  return names;
}

/** The known types a field's name points at: by type name or by the last part of the object name. */
export function typesNamedBy(segments: readonly string[], known: readonly KnownType[]): KnownType[] {
  const names = new Set(namesOfIdPath(segments));
  return known.filter(
    (type) => names.has(squash(type.typeName)) || names.has(squash(type.objectName.split('.').at(-1) ?? '')),
  );
}

/** The upstream's answers to a type it does not have; a timeout, a bad login or an ill upstream stop the run. */
const REFUSAL_KINDS: ReadonlySet<string> = new Set(['rejected_input', 'service', 'not_found']);

/** Whether the upstream refused the type itself. */
const isRefusal = (error: unknown): error is UpstreamError =>
  error instanceof UpstreamError && REFUSAL_KINDS.has(error.kind);

/** The references among `stats`, checked against the upstream. */
export async function findRefs(stats: readonly FieldStats[], options: FindRefsOptions): Promise<FoundRefs> {
  const refs: FoundRef[] = [];
  const refused = new Map<string, RefusedType>();
  for (const field of stats) {
    const onlyText = Object.keys(field.kinds).length === 1 && field.kinds.string !== undefined;
    if (!onlyText || !looksLikeIdPath(field.segments) || field.distinct.size === 0) continue;
    const ids = [...field.distinct].slice(0, MAX_IDS_CHECKED);
    for (const type of typesNamedBy(field.segments, options.knownTypes)) {
      if (refused.has(type.objectName)) continue;
      let exist: boolean;
      try {
        exist = await allExist(options, type.objectName, ids);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const reason = error.upstreamMessage ?? error.detail;
        refused.set(type.objectName, { objectName: type.objectName, reason });
        continue;
      }
      if (exist) {
        refs.push({ path: field.path, typeName: type.typeName, checked: ids.length });
        break;
      }
    }
  }
  return { refs, refused: [...refused.values()] };
}
