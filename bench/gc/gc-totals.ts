/**
 * GC time and allocated bytes of a process, summed from `v8.GCProfiler` records (`gc-preload.ts`) and read
 * back by the bench (`gc-probe.ts`). Node 24's heap statistics hold no running count of allocated bytes,
 * so they are derived: the used heap only grows between collections by what the program allocates, so the
 * bytes allocated are the used heap at each collection's start minus where the previous one left it, plus
 * the growth since the last one.
 */

/** What the preload has counted since the process started. */
export interface GcTotals {
  /** Main-thread time spent in collections (V8's GC prologue to epilogue), microseconds. */
  gcMicros: number;
  /** Collections of any kind (scavenges, mark-compacts, incremental marking steps, weak callbacks). */
  gcCount: number;
  /** Full mark-compact collections (`MarkSweepCompact`): the long pauses. */
  majorCount: number;
  /** Bytes allocated on the V8 heap (estimated from the used heap around each collection). */
  allocatedBytes: number;
  /** The used heap after the last collection counted (or when counting began). */
  usedAfterLast: number;
}

/** One record of `GCProfiler#stop()`'s `statistics`, as far as the totals need it. */
export interface GcRecord {
  gcType: string;
  /** Microseconds. */
  cost: number;
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

/** Totals of a process that has just started counting with `usedHeap` bytes in use. */
export function emptyTotals(usedHeap: number): GcTotals {
  return { gcMicros: 0, gcCount: 0, majorCount: 0, allocatedBytes: 0, usedAfterLast: usedHeap };
}

/**
 * `totals` plus `records` (in the order they happened) and the growth up to `usedNow`. A negative step
 * (heap shrinking outside a collection, e.g. by concurrent sweeping) counts as nothing allocated.
 */
export function addRecords(totals: GcTotals, records: readonly GcRecord[], usedNow: number): GcTotals {
  let { gcMicros, gcCount, majorCount, allocatedBytes, usedAfterLast } = totals;
  for (const record of records) {
    allocatedBytes += Math.max(0, record.beforeGC.heapStatistics.usedHeapSize - usedAfterLast);
    usedAfterLast = record.afterGC.heapStatistics.usedHeapSize;
    gcMicros += record.cost;
    gcCount += 1;
    if (record.gcType === 'MarkSweepCompact') majorCount += 1;
  }
  allocatedBytes += Math.max(0, usedNow - usedAfterLast);
  return { gcMicros, gcCount, majorCount, allocatedBytes, usedAfterLast: usedNow };
}

/** A snapshot the preload writes when asked: its totals and a sequence number, one per request. */
export interface GcSnapshot extends GcTotals {
  seq: number;
}

const FIELDS = ['seq', 'gcMicros', 'gcCount', 'majorCount', 'allocatedBytes', 'usedAfterLast'] as const;

/** A snapshot file's text, or `undefined` when it is not one (half written, or something else). */
export function parseGcSnapshot(text: string): GcSnapshot | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const snapshot: Partial<GcSnapshot> = {};
  for (const field of FIELDS) {
    const number = record[field];
    if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return undefined;
    snapshot[field] = number;
  }
  return snapshot as GcSnapshot;
}

/** What a round cost in collections, per request: the difference of two snapshots. */
export interface GcPerRequest {
  gcMicrosPerRequest: number;
  allocatedBytesPerRequest: number;
  /** Full collections during the round (not per request: one is a pause someone waits for). */
  majorGcs: number;
}

/** The collections between `before` and `after`, over `requests` requests (0 per request for none). */
export function gcPerRequest(before: GcTotals, after: GcTotals, requests: number): GcPerRequest {
  const per = (value: number): number => (requests > 0 ? value / requests : 0);
  return {
    gcMicrosPerRequest: per(after.gcMicros - before.gcMicros),
    allocatedBytesPerRequest: per(after.allocatedBytes - before.allocatedBytes),
    majorGcs: after.majorCount - before.majorCount,
  };
}
