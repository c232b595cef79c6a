/**
 * Stand-in (feature `loader`): when a tick asks `object(objectName, id)` for one id only, that id is read
 * with a direct `getAll` (the call the batch function makes for it), without DataLoader; a tick with more
 * ids (W3's references) goes through the real loaders, so batching stays as it is. Ticks are cut the way
 * DataLoader cuts them (after the promise jobs, on the next tick).
 */
import { escapeJavaRegex } from '../../../src/upstream/pattern-guard/regex-escape.ts';
import * as Real from '../../../src/upstream/batching/loaders.ts';
import type { UpstreamRecord } from '../../../src/upstream/client/types.ts';

export * from '../../../src/upstream/batching/loaders.ts';

interface Pending {
  objectName: string;
  id: string;
  resolve: (record: UpstreamRecord | null) => void;
  reject: (reason: unknown) => void;
}

/** The real loaders, with a direct read for a tick's single id. */
export const createLoaders: typeof Real.createLoaders = (options) => {
  const { client, credentials } = options;
  const real = Real.createLoaders(options);
  let pending: Pending[] = [];

  async function direct(objectName: string, id: string): Promise<UpstreamRecord | null> {
    const criteria = [{ fieldName: '_id', operator: 'matches', value: escapeJavaRegex(id) }];
    const page = await client.getAll(credentials, objectName, criteria, 1, 0);
    return page.records.find((record) => record._id === id) ?? null;
  }

  function flush(): void {
    const tick = pending;
    pending = [];
    const [only] = tick;
    if (tick.length === 1 && only !== undefined) {
      direct(only.objectName, only.id).then(only.resolve, only.reject);
      return;
    }
    for (const entry of tick) real.object(entry.objectName, entry.id).then(entry.resolve, entry.reject);
  }

  // The real loaders keep their methods on a prototype: delegate each, a spread would copy none.
  return {
    find: (objectName, criteria) => real.find(objectName, criteria),
    page: (objectName, criteria, pageSize, pageIndex) => real.page(objectName, criteria, pageSize, pageIndex),
    metadata: (objectId, category) => real.metadata(objectId, category),
    clearObject(objectName, id) {
      real.clearObject(objectName, id);
    },
    primeObject(objectName, record) {
      real.primeObject(objectName, record);
    },
    object(objectName, id) {
      return new Promise((resolve, reject) => {
        if (pending.length === 0) {
          void Promise.resolve().then(() => {
            process.nextTick(flush);
          });
        }
        pending.push({ objectName, id, resolve, reject });
      });
    },
  };
};
