/**
 * The records a request's pages brought, per object type, waiting for that type's object loader: handed
 * over one by one when `object()` asks for an id, so that a request reading a record by id after a page
 * that held it makes no second call, and sees the version the page brought.
 */
import type { UpstreamRecord } from '../client/wire.ts';

/**
 * Pages are kept as they came (their record arrays, which the page loader's cache holds anyway) and
 * indexed by id only when an id of their type is first asked for: most pages are never read by id again,
 * and indexing each one cost a map of its records per page read. First version wins, as with DataLoader's
 * `prime`: a record already indexed (or handed over) is not replaced by a later page's.
 */
export class PrimedRecords {
  #pending: Map<string, (readonly UpstreamRecord[])[]> | undefined;
  #indexed: Map<string, Map<string, UpstreamRecord>> | undefined;

  /** Keeps a page's records of `objectName` until an id of that type is asked for. */
  add(objectName: string, records: readonly UpstreamRecord[]): void {
    this.#pending ??= new Map();
    const pages = this.#pending.get(objectName);
    if (pages === undefined) this.#pending.set(objectName, [records]);
    else pages.push(records);
  }

  /** The record `id` of `objectName` a page brought and nobody took yet; it is taken (at most once). */
  take(objectName: string, id: string): UpstreamRecord | undefined {
    const byId = this.#index(objectName);
    const record = byId?.get(id);
    if (record !== undefined) byId?.delete(id);
    return record;
  }

  /** Drops `id` of `objectName` (written, or put in the loader by the caller): it is not handed over. */
  forget(objectName: string, id: string): void {
    this.#index(objectName)?.delete(id);
  }

  /** The records of `objectName` by id, the pages that came since the last call indexed in their order. */
  #index(objectName: string): Map<string, UpstreamRecord> | undefined {
    const pages = this.#pending?.get(objectName);
    let byId = this.#indexed?.get(objectName);
    if (pages === undefined) return byId;
    this.#pending?.delete(objectName);
    if (byId === undefined) (this.#indexed ??= new Map()).set(objectName, (byId = new Map()));
    for (const records of pages) {
      for (const record of records) if (!byId.has(record._id)) byId.set(record._id, record);
    }
    return byId;
  }
}
