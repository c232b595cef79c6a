/**
 * The fields this gateway wrote to each object in the last moments: what a read of the object must show
 * before a save with `_id` may trust it. Behind a replica that lags the writes, the read a save with `_id`
 * makes first can be older than the caller's own update of a moment ago; saving that old version whole (an
 * upstream that replaces) or writing its values back (a dropped field restored) would undo the update. So the
 * save waits until the read shows these fields, or refuses. Only this gateway's writes are known: another
 * replica's are not (the upstream has no version to compare).
 */
import { copyJson } from '../exact-json.ts';

/** The most objects remembered; past it the oldest is forgotten (its protection lost, never its data). */
export const MAX_RECENT_WRITES = 10_000;

/** Recent writes by object. */
export interface RecentWrites {
  /**
   * Remembers `fields` written to object `id` of `objectName` for `forMillis`: merged over earlier ones, or
   * instead of them when the write replaced the object `whole`.
   */
  remember(
    objectName: string,
    id: string,
    fields: Readonly<Record<string, unknown>>,
    forMillis: number,
    whole?: boolean,
  ): void;
  /** The fields written to the object and not yet forgotten, or `undefined`. */
  recall(objectName: string, id: string): Readonly<Record<string, unknown>> | undefined;
}

interface Entry {
  fields: Record<string, unknown>;
  until: number;
}

/** An empty memory of at most `max` objects, by the clock `now`. */
export function createRecentWrites(max = MAX_RECENT_WRITES, now: () => number = Date.now): RecentWrites {
  const entries = new Map<string, Entry>();
  const keyOf = (objectName: string, id: string): string => `${objectName}\n${id}`;
  return {
    remember(objectName, id, fields, forMillis, whole = false) {
      if (forMillis <= 0) return;
      const key = keyOf(objectName, id);
      const earlier = entries.get(key);
      const merged: Record<string, unknown> =
        !whole && earlier !== undefined && earlier.until > now() ? earlier.fields : {};
      for (const [field, value] of Object.entries(fields)) {
        if (field === '_id') continue;
        Object.defineProperty(merged, field, {
          value: copyJson(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      entries.delete(key);
      entries.set(key, { fields: merged, until: now() + forMillis });
      if (entries.size <= max) return;
      const oldest = entries.keys().next();
      if (oldest.done !== true) entries.delete(oldest.value);
    },
    recall(objectName, id) {
      const key = keyOf(objectName, id);
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.until > now()) return entry.fields;
      entries.delete(key);
      return undefined;
    },
  };
}
