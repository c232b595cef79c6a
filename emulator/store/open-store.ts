import { resolve } from 'node:path';
import { openDataFile } from './data-file.ts';
import { createObjectStore, type ObjectStore } from './object-store.ts';
import { OBJECT_NAMES, createSeedObjects } from './seed-data.ts';

/** A store and how to make its changes durable. */
export interface OpenedStore {
  store: ObjectStore;
  /** Resolves once every change made so far is on disk (at once without a data file). */
  persist: () => Promise<void>;
  /** Resolves when no write is pending. */
  settled: () => Promise<void>;
}

function seed(store: ObjectStore): void {
  for (const object of createSeedObjects()) store.add({ ...object, updatedAt: object.createdAt, version: 1 });
}

/**
 * Opens the store: in memory with the seed data, or from `dataFile` (seeded and written on first start),
 * serving the demo types and `objectTypes` (which start empty).
 * Rejects with a plain message when the file exists but cannot be used; it is never overwritten then.
 */
export async function openStore(
  dataFile: string | undefined,
  objectTypes: readonly string[] = [],
): Promise<OpenedStore> {
  const store = createObjectStore([...OBJECT_NAMES, ...objectTypes]);
  if (dataFile === undefined) {
    seed(store);
    return { store, persist: () => Promise.resolve(), settled: () => Promise.resolve() };
  }
  const file = openDataFile(resolve(dataFile));
  const persisted = await file.load();
  if (persisted === undefined) {
    seed(store);
    await file.persist(() => store.snapshot());
  } else {
    for (const object of persisted) {
      if (store.hasId(object.record._id))
        throw new Error(`the data file ${dataFile} holds the id ${object.record._id} twice`);
      store.add(object);
    }
  }
  return { store, persist: () => file.persist(() => store.snapshot()), settled: () => file.settled() };
}
