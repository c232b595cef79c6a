/**
 * Reads from a replica that lags the writes (`readLagMillis`), as a service behind a load balancer reading
 * from a MongoDB secondary: for that long after a write, reads see the object as it was before it (a new
 * object not at all). Writes still see the primary (the store itself), so a save naming an `_id` a moment
 * after the object's creation finds it, as the real primary would. Each object's version is applied whole,
 * as a replica applies a document's write.
 */
import type { ObjectStore, StoredObject, TenantScope } from '../store/object-store.ts';

/** The replica: what write handlers tell it before they change the store, and the view reads go through. */
export interface LaggingReplica {
  /** Call before `object` changes (or, `undefined`, right after a new object with `id` is added). */
  beforeWrite(id: string, object: StoredObject | undefined): void;
  /** The store as the replica shows it now: the same store, older versions of recently written objects. */
  view: ObjectStore;
}

/** A version the replica still shows, until `until` (ms since the epoch); `undefined`: not there yet. */
interface PendingVersion {
  until: number;
  shown: StoredObject | undefined;
}

/** How many objects may hold pending versions before the expired ones are swept. */
const SWEEP_AT = 1000;

/** A copy of `object` as it is now: the store changes the record in place. */
function versionOf(object: StoredObject): StoredObject {
  return { ...object, record: { ...object.record } };
}

/** A replica of `store` lagging `lagMillis` behind it by the clock `now`. */
export function createLaggingReplica(
  store: ObjectStore,
  lagMillis: number,
  now: () => number,
): LaggingReplica {
  // Per object, the versions not yet replicated, oldest first: the first that has not expired is shown.
  const pending = new Map<string, PendingVersion[]>();

  function shownVersion(id: string, current: StoredObject): StoredObject | undefined {
    const versions = pending.get(id);
    if (versions === undefined) return current;
    const time = now();
    while (versions.length > 0 && (versions[0]?.until ?? 0) <= time) versions.shift();
    if (versions.length === 0) {
      pending.delete(id);
      return current;
    }
    return versions[0]?.shown;
  }

  const view: ObjectStore = {
    ...store,
    get(id, scope: TenantScope) {
      const object = store.get(id, scope);
      return object === undefined ? undefined : shownVersion(id, object);
    },
    list(objectName, scope) {
      const objects = store.list(objectName, scope);
      if (pending.size === 0) return objects;
      const shown: StoredObject[] = [];
      for (const object of objects) {
        const version = shownVersion(object.id, object);
        if (version !== undefined) shown.push(version);
      }
      return shown;
    },
  };

  return {
    beforeWrite(id, object) {
      if (lagMillis <= 0) return;
      // Objects written but never read again hold their versions until a sweep: one per thousand pending.
      if (pending.size >= SWEEP_AT) {
        for (const [key, versions] of pending) {
          if (versions.every((version) => version.until <= now())) pending.delete(key);
        }
      }
      const versions = pending.get(id) ?? [];
      versions.push({
        until: now() + lagMillis,
        shown: object === undefined ? undefined : versionOf(object),
      });
      pending.set(id, versions);
    },
    view,
  };
}
