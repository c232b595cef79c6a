/**
 * The `--gc` mode: the totals summed from GC records (allocated bytes from the used heap around each
 * collection), the snapshot file the bench reads, and the preload in a real process answering SIGUSR2.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../support/child-process.ts';
import { gcProbe, gcStartOptions } from '../gc/gc-probe.ts';
import { addRecords, emptyTotals, gcPerRequest, parseGcSnapshot } from '../gc/gc-totals.ts';
import type { GcRecord, GcSnapshot } from '../gc/gc-totals.ts';
import { startNodeProcess } from '../processes.ts';

/** A run of collections: before each, the program allocates `grown`; the collection frees `freed` of it. */
const history = fc.record({
  start: fc.nat({ max: 1e9 }),
  steps: fc.array(
    fc.record({
      grown: fc.nat({ max: 1e8 }),
      freedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      cost: fc.double({ min: 0, max: 1e5, noNaN: true }),
      major: fc.boolean(),
    }),
    { maxLength: 40 },
  ),
  tail: fc.nat({ max: 1e8 }),
});

/** One step of a {@link history}. */
type Step = (typeof history extends fc.Arbitrary<infer T> ? T : never)['steps'][number];

function recordsOf(start: number, steps: readonly Step[]): GcRecord[] {
  let used = start;
  return steps.map(({ grown, freedShare, cost, major }) => {
    const before = used + grown;
    used = Math.round(before * (1 - freedShare));
    return {
      gcType: major ? 'MarkSweepCompact' : 'Scavenge',
      cost,
      beforeGC: { heapStatistics: { usedHeapSize: before } },
      afterGC: { heapStatistics: { usedHeapSize: used } },
    };
  });
}

const afterLast = (start: number, records: readonly GcRecord[]): number =>
  records.at(-1)?.afterGC.heapStatistics.usedHeapSize ?? start;

describe('GC totals', () => {
  it('should count as allocated exactly what grew between collections, however the records are split', () => {
    fc.assert(
      fc.property(history, fc.nat(), ({ start, steps, tail }, cut) => {
        const records = recordsOf(start, steps);
        const end = afterLast(start, records) + tail;
        const whole = addRecords(emptyTotals(start), records, end);
        const grown = steps.reduce((sum, step) => sum + step.grown, 0) + tail;
        expect(whole.allocatedBytes).toBe(grown);
        expect(whole.gcCount).toBe(steps.length);
        expect(whole.majorCount).toBe(steps.filter((step) => step.major).length);
        // Read in two snapshots (the bench reads before and after each round): the same totals.
        const at = steps.length === 0 ? 0 : cut % (steps.length + 1);
        const first = records.slice(0, at);
        const middle = addRecords(emptyTotals(start), first, afterLast(start, first));
        const both = addRecords(middle, records.slice(at), end);
        expect(both.allocatedBytes).toBe(whole.allocatedBytes);
        expect(both.gcMicros).toBeCloseTo(whole.gcMicros, 3);
      }),
    );
  });

  it('should not count a heap that shrank outside a collection as negative allocation', () => {
    const totals = addRecords(emptyTotals(1000), [], 400);
    expect(totals.allocatedBytes).toBe(0);
    expect(addRecords(totals, [], 900).allocatedBytes).toBe(500);
  });

  it('should answer per request what happened between two snapshots', () => {
    const before = { ...emptyTotals(0), gcMicros: 100, allocatedBytes: 1000, majorCount: 1 };
    const after = { ...before, gcMicros: 2100, allocatedBytes: 41_000, majorCount: 3 };
    expect(gcPerRequest(before, after, 1000)).toEqual({
      gcMicrosPerRequest: 2,
      allocatedBytesPerRequest: 40,
      majorGcs: 2,
    });
    expect(gcPerRequest(before, after, 0).gcMicrosPerRequest).toBe(0);
  });

  it('should read back any snapshot it wrote and refuse anything else', () => {
    const snapshot = fc.record({
      seq: fc.nat(),
      gcMicros: fc.double({ min: 0, max: 1e12, noNaN: true }),
      gcCount: fc.nat(),
      majorCount: fc.nat(),
      allocatedBytes: fc.nat(),
      usedAfterLast: fc.nat(),
    });
    fc.assert(
      fc.property(snapshot, (value: GcSnapshot) => {
        expect(parseGcSnapshot(JSON.stringify(value))).toEqual(value);
        // Half a file (the bench may read while… it never does: the preload renames, but be safe).
        const text = JSON.stringify(value);
        expect(parseGcSnapshot(text.slice(0, text.length - 1))).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseGcSnapshot(text);
        if (parsed !== undefined) expect(parsed.seq).toBeGreaterThanOrEqual(0);
      }),
    );
    expect(
      parseGcSnapshot(
        '{"seq":1,"gcMicros":-1,"gcCount":0,"majorCount":0,"allocatedBytes":0,"usedAfterLast":0}',
      ),
    ).toBeUndefined();
    expect(parseGcSnapshot('null')).toBeUndefined();
  });
});

describe('GC preload', () => {
  const logDir = mkdtempSync(join(tmpdir(), 'bench-gc-'));
  afterAll(() => {
    rmSync(logDir, { recursive: true, force: true });
  });

  it('should report, on request, the collections and allocation of the process it is loaded in', async () => {
    const counting = gcStartOptions('allocator', logDir);
    // About 2 million small objects (well over 50 MB), a few kept, then idle until stopped.
    const child = startNodeProcess(
      'allocator',
      '--eval=const keep = []; for (let i = 0; i < 2e6; i++) { const o = { i, s: "x" + i }; if (i % 1000 === 0) keep.push(o); } setInterval(() => keep.length, 1000);',
      counting.env,
      logDir,
      'log',
      counting.nodeOptions,
    );
    try {
      const probe = gcProbe(child.pid, counting.file);
      const first = await probe.snapshot();
      expect(first.seq).toBeGreaterThan(0);
      expect(first.allocatedBytes).toBeGreaterThan(50 * 1024 ** 2);
      expect(first.gcCount).toBeGreaterThan(0);
      expect(first.gcMicros).toBeGreaterThan(0);
      // Idle since: a second reading adds (almost) nothing and the process is still alive.
      const second = await probe.snapshot();
      expect(second.seq).toBeGreaterThan(first.seq);
      expect(second.allocatedBytes - first.allocatedBytes).toBeLessThan(5 * 1024 ** 2);
      expect(child.exited).toBeUndefined();
    } finally {
      await stopProcess(child);
    }
  });
});
