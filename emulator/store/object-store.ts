import type { UpstreamRecord } from '../../src/upstream/client/wire.ts';
import { jsonText } from '../http/json-text.ts';

/** An object in the store, with the bookkeeping that metadata answers. */
export interface StoredObject {
  readonly id: string;
  readonly objectName: string;
  readonly applicationCode: string;
  readonly organizationCode: string;
  /** Insertion order: the stable order of every read. */
  seq: number;
  readonly createdAt: string;
  readonly createdBy: string;
  record: UpstreamRecord;
  updatedAt: string;
  version: number;
}

/** An object as it is written to (and read from) the data file. */
export interface PersistedObject {
  objectName: string;
  applicationCode: string;
  organizationCode: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  version: number;
  record: UpstreamRecord;
}

/** The tenant a caller may see: one application and the organizations in play. */
export interface TenantScope {
  applicationCode: string;
  organizationCodes: readonly string[];
}

/** Holds every object, indexed by id and by (application, organization, type). */
export interface ObjectStore {
  /** Whether reads and saves of this `objectName` are served. */
  isKnownType(objectName: string): boolean;
  /** The object with this id, only if it lies in `scope` (another tenant's id is simply not found). */
  get(id: string, scope: TenantScope): StoredObject | undefined;
  /** Every organization that holds objects of `applicationCode`, in the order first seen. */
  organizationsOf(applicationCode: string): string[];
  /** Every object of a type in `scope`, in insertion order. Do not mutate the answer. */
  list(objectName: string, scope: TenantScope): readonly StoredObject[];
  /** Adds an object; `record._id` must be new. */
  add(object: PersistedObject): StoredObject;
  /** Merges `fields` into the object (never `_id`); answers the fields whose value changed. */
  merge(object: StoredObject, fields: Record<string, unknown>, nowIso: string): Record<string, unknown>;
  /** Replaces the object's fields with `fields` (its `_id` kept), as a save that replaces does. */
  replace(object: StoredObject, fields: Record<string, unknown>, nowIso: string): void;
  /**
   * Moves the object to the end of the natural order (its type's list and the data file), as MongoDB's
   * MMAPv1 moves a document that outgrows its place (`ReadQuirks.naturalOrderMoves`).
   */
  moveToEnd(object: StoredObject): void;
  /** Whether any object, in any tenant, has this id. */
  hasId(id: string): boolean;
  /** The record's JSON text, computed once per version: reads are the hot path. */
  recordJson(object: StoredObject): string;
  /** Every object in insertion order, for the data file. */
  snapshot(): PersistedObject[];
}

const bucketKey = (applicationCode: string, organizationCode: string, objectName: string): string =>
  `${applicationCode}\n${organizationCode}\n${objectName}`;

/** Defines rather than assigns, so a client field named `__proto__` stays a plain field. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Builds an empty store serving the given object types. */
export function createObjectStore(objectNames: readonly string[]): ObjectStore {
  const knownTypes = new Set(objectNames);
  const byId = new Map<string, StoredObject>();
  const buckets = new Map<string, StoredObject[]>();
  const jsonCache = new WeakMap<StoredObject, { version: number; json: string }>();
  const all: StoredObject[] = [];
  const empty: readonly StoredObject[] = [];
  let nextSeq = 0;

  const inScope = (object: StoredObject, scope: TenantScope): boolean =>
    object.applicationCode === scope.applicationCode &&
    scope.organizationCodes.includes(object.organizationCode);

  return {
    isKnownType: (objectName) => knownTypes.has(objectName),
    get(id, scope) {
      const object = byId.get(id);
      return object !== undefined && inScope(object, scope) ? object : undefined;
    },
    organizationsOf(applicationCode) {
      const seen = new Set<string>();
      for (const object of all)
        if (object.applicationCode === applicationCode) seen.add(object.organizationCode);
      return [...seen];
    },
    list(objectName, scope) {
      const { applicationCode, organizationCodes } = scope;
      if (organizationCodes.length === 1) {
        return buckets.get(bucketKey(applicationCode, organizationCodes[0] ?? '', objectName)) ?? empty;
      }
      const merged: StoredObject[] = [];
      for (const org of organizationCodes)
        merged.push(...(buckets.get(bucketKey(applicationCode, org, objectName)) ?? []));
      return merged.sort((a, b) => a.seq - b.seq);
    },
    add(persisted) {
      const object: StoredObject = { ...persisted, id: persisted.record._id, seq: nextSeq++ };
      byId.set(object.id, object);
      const key = bucketKey(object.applicationCode, object.organizationCode, object.objectName);
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [object]);
      else bucket.push(object);
      all.push(object);
      return object;
    },
    merge(object, fields, nowIso) {
      const changed: Record<string, unknown> = {};
      let any = false;
      for (const [key, value] of Object.entries(fields)) {
        if (key === '_id') continue;
        const before = Object.hasOwn(object.record, key) ? object.record[key] : undefined;
        if (before !== undefined && JSON.stringify(before) === JSON.stringify(value)) continue;
        setOwn(object.record, key, value);
        setOwn(changed, key, value);
        any = true;
      }
      if (any) {
        object.updatedAt = nowIso;
        object.version += 1;
      }
      return changed;
    },
    replace(object, fields, nowIso) {
      const record: UpstreamRecord = { _id: object.id };
      for (const [key, value] of Object.entries(fields)) if (key !== '_id') setOwn(record, key, value);
      object.record = record;
      object.updatedAt = nowIso;
      object.version += 1;
    },
    moveToEnd(object) {
      const bucket = buckets.get(
        bucketKey(object.applicationCode, object.organizationCode, object.objectName),
      );
      for (const list of [bucket, all]) {
        const at = list?.indexOf(object) ?? -1;
        if (list === undefined || at < 0) continue;
        list.splice(at, 1);
        list.push(object);
      }
      object.seq = nextSeq++;
    },
    hasId: (id) => byId.has(id),
    recordJson(object) {
      const cached = jsonCache.get(object);
      if (cached?.version === object.version) return cached.json;
      const json = jsonText(object.record);
      jsonCache.set(object, { version: object.version, json });
      return json;
    },
    // What a restart needs: all but the id (it is the record's `_id`) and the insertion order (the file's order).
    snapshot: () => all.map(({ id: _id, seq: _seq, ...persisted }) => persisted),
  };
}
