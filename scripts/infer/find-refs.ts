/**
 * Which sampled fields hold ids of other known object types: for each field whose name says "id"
 * (`customer.id`, `customerId`), its distinct sampled values are looked up in each known type with one
 * batched `getAll` per 50 ids (`_id` matching their escaped alternation, as the gateway's loaders batch).
 * A field becomes a reference only when every sampled id exists in that type.
 */
import { alternationOf } from '../../src/upstream/pattern-guard/regex-escape.ts';
import type { MatchesMode, UpstreamClient, UpstreamCredentials } from '../../src/upstream/client/types.ts';
import type { FieldStats } from './field-stats.ts';
import { looksLikeIdPath, type FoundRef } from './infer-fields.ts';

/** A type the gateway already knows (from `schema/objects/`). */
export interface KnownType {
  typeName: string;
  objectName: string;
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

/** The references among `stats`, checked against the upstream. */
export async function findRefs(stats: readonly FieldStats[], options: FindRefsOptions): Promise<FoundRef[]> {
  const found: FoundRef[] = [];
  for (const field of stats) {
    const onlyText = Object.keys(field.kinds).length === 1 && field.kinds.string !== undefined;
    if (!onlyText || !looksLikeIdPath(field.segments) || field.distinct.size === 0) continue;
    const ids = [...field.distinct].slice(0, MAX_IDS_CHECKED);
    for (const type of options.knownTypes) {
      if (await allExist(options, type.objectName, ids)) {
        found.push({ path: field.path, typeName: type.typeName, checked: ids.length });
        break;
      }
    }
  }
  return found;
}
