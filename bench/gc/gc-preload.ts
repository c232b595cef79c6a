/**
 * Loaded with `--import` by the bench's peers in `--gc` mode (never in production): counts the process's
 * garbage collections with `v8.GCProfiler` (recorded natively at each collection, nothing runs in
 * JavaScript until asked), and on SIGUSR2 writes its totals to `BENCH_GC_FILE` (`gc-totals.ts`), so the
 * bench reads them before and after each round without touching the measured requests.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { addRecords, emptyTotals } from './gc-totals.ts';
import type { GcRecord, GcTotals } from './gc-totals.ts';

const file = process.env.BENCH_GC_FILE;
if (file !== undefined && file !== '') {
  let totals: GcTotals = emptyTotals(getHeapStatistics().used_heap_size);
  let seq = 0;
  let profiler = new GCProfiler();
  profiler.start();
  const write = (): void => {
    // Renamed into place, so the bench never reads half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ ...totals, seq }));
    renameSync(`${file}.tmp`, file);
  };
  process.on('SIGUSR2', () => {
    const { statistics } = profiler.stop() as unknown as { statistics: GcRecord[] };
    profiler = new GCProfiler();
    profiler.start();
    totals = addRecords(totals, statistics, getHeapStatistics().used_heap_size);
    seq += 1;
    write();
  });
  // Sequence 0: the listener is in place (before it, SIGUSR2 would end the process).
  write();
}
