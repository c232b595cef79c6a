/**
 * The object types whose save with `_id` was seen to replace the object although `UPSTREAM_SAVE_WITH_ID` said
 * it merges. The check learns the setting on one scratch type, but an upstream's registered entity classes may
 * replace (`MongoTemplate.save`) where its generic store merges: so what a save showed for a type holds for
 * that type's later saves, which then read, merge and write the object whole. Remembering a type wrongly only
 * costs the safer path (a read before the save), so any caller's save may teach it.
 */

/** The most types remembered; past it the oldest is forgotten (it is learnt again by its next save). */
export const MAX_REPLACING_TYPES = 1024;

/** Types seen to replace on a save with `_id`. */
export interface ReplacingTypes {
  has(objectName: string): boolean;
  /** Remembers `objectName` as replacing. */
  add(objectName: string): void;
}

/** An empty memory of at most `max` types. */
export function createReplacingTypes(max = MAX_REPLACING_TYPES): ReplacingTypes {
  const types = new Set<string>();
  return {
    has: (objectName) => types.has(objectName),
    add(objectName) {
      types.delete(objectName);
      types.add(objectName);
      if (types.size <= max) return;
      const oldest = types.values().next();
      if (oldest.done !== true) types.delete(oldest.value);
    },
  };
}
