/**
 * The fixed-rate tail (`--rate`): paired rounds in alternating order, P4's p99 against F1's taken per
 * round, and the GC columns in the report and RESULTS.md when the peers counted their collections.
 */
import { describe, expect, it } from 'vitest';
import { pairedDifference, summariseFixedRate } from '../fixed-rate.ts';
import { markdownFixedRate, markdownTable } from '../report.ts';
import type { RunReport } from '../report.ts';
import { pairedOrder } from '../run-fixed-rate.ts';
import { summarise } from '../summary.ts';
import type { RoundMeasure } from '../summary.ts';
import { checkTargets } from '../targets.ts';

const round = (p99Millis: number, gc?: { micros: number; bytes: number; major: number }): RoundMeasure => ({
  requests: 1500,
  requestsPerSecond: 500,
  p50Millis: p99Millis / 4,
  p99Millis,
  upstreamCallsPerRequest: 1,
  cpuSecondsPer1000: 0.3,
  peakRssBytes: 100 * 1024 ** 2,
  non2xx: 0,
  socketErrors: 0,
  mismatches: 0,
  ...(gc === undefined
    ? {}
    : { gcMicrosPerRequest: gc.micros, allocatedBytesPerRequest: gc.bytes, majorGcs: gc.major }),
});

describe('fixed-rate tail', () => {
  it('should reverse the order every other round, so F1 and P4 take turns going first', () => {
    const peers = ['P0', 'F1', 'P4'];
    expect([0, 1, 2, 3].map((r) => pairedOrder(peers, r).join(' '))).toEqual([
      'P0 F1 P4',
      'P4 F1 P0',
      'P0 F1 P4',
      'P4 F1 P0',
    ]);
  });

  it("should take the median of each round's difference, not the difference of medians", () => {
    // A slow machine in round 2 moves both: paired, P4 is 1 ms over F1 every round.
    const f1 = [round(5), round(30), round(6)];
    const p4 = [round(6), round(31), round(7)];
    expect(pairedDifference(f1, p4, (m) => m.p99Millis)).toBe(1);
    // A round one of them lost is left out, not paired with another round.
    expect(
      pairedDifference([round(5), undefined, round(6)], [round(6), round(99), round(9)], (m) => m.p99Millis),
    ).toBe(2);
    expect(pairedDifference([undefined], [round(1)], (m) => m.p99Millis)).toBeUndefined();
    expect(pairedDifference(undefined, [round(1)], (m) => m.p99Millis)).toBeUndefined();
  });

  it('should report each peer, its rounds and P4 over F1 and over P0, and check the 3 ms target', () => {
    const gc = { micros: 10, bytes: 20_480, major: 0 };
    const summary = summariseFixedRate(500, 32, 3, {
      P0: [round(2), round(3), round(2)],
      F1: [round(5, gc), round(30, gc), round(6, gc)],
      P4: [round(9, { ...gc, micros: 50, major: 1 }), round(33, { ...gc, major: 1 }), round(10, gc)],
    });
    expect(summary.p99OverFloorMillis).toBe(4);
    expect(summary.addedP99Millis).toBe(8);
    expect(summary.peers.P4).toMatchObject({ p99Millis: 10, roundP99Millis: [9, 33, 10], majorGcs: 2 });
    expect(summary.peers.P0?.gcMicrosPerRequest).toBeUndefined();
    const text = markdownFixedRate(summary);
    expect(text).toContain('3 paired rounds');
    expect(text).toContain('| P4 | 500 | 2.50 | 10.00 | 9.00, 33.00, 10.00 | 10.0 | 20.0 | 2 | 0 |');
    expect(text).toContain('| P0 | 500 | 0.50 | 2.00 | 2.00, 3.00, 2.00 | – | – | – | 0 |');
    expect(text).toContain('P4 over F1, its floor: p50 1.00 ms, p99 4.00 ms');
    const target = checkTargets([], {}, summary).find((t) => t.target.includes('within 3 ms of F1'));
    expect(target).toMatchObject({ measured: '4.00 ms', met: false });
  });

  it('should show GC columns in the main table only when peers counted, and check P4 against 2× F1', () => {
    const cells = [
      summarise('W1', 'F1', [round(5, { micros: 10, bytes: 10_240, major: 0 })], {
        mismatchSamples: [],
        sequentialCallsPerRequest: 1,
      }),
      summarise('W1', 'P4', [round(6, { micros: 25, bytes: 51_200, major: 1 })], {
        mismatchSamples: [],
        sequentialCallsPerRequest: 1,
      }),
    ];
    const report = { settings: { workloads: ['W1'] }, cells } as unknown as RunReport;
    const table = markdownTable(report);
    expect(table).toContain('GC µs/req | alloc KiB/req | full GCs');
    expect(table).toMatch(/\| P4 \|.*\| 25\.0 \| 50\.0 \| 1 \|/);
    const without = markdownTable({
      ...report,
      cells: [summarise('W1', 'P4', [round(6)], { mismatchSamples: [], sequentialCallsPerRequest: 1 })],
    });
    expect(without).not.toContain('GC µs/req');
    const target = checkTargets(cells, {}, undefined).find((t) => t.target.startsWith("W1: P4's GC"));
    expect(target).toMatchObject({ measured: '25.0 / 10.0 µs = 2.50×', met: false });
  });

  it("should hold P4's CPU per request against F1's of the same run (W3 ≤ 1.5×)", () => {
    const cell = (peer: 'F1' | 'P4', cpuSecondsPer1000: number) =>
      summarise('W3', peer, [{ ...round(5), cpuSecondsPer1000 }], {
        mismatchSamples: [],
        sequentialCallsPerRequest: 2,
      });
    const target = (p4: number) =>
      checkTargets([cell('F1', 0.6), cell('P4', p4)], {}, undefined).find((t) =>
        t.target.startsWith("W3: P4's CPU"),
      );
    expect(target(0.9)).toMatchObject({
      target: "W3: P4's CPU per request ≤ 1.5× F1's",
      measured: '0.900 / 0.600 s/1k = 1.50×',
      met: true,
    });
    expect(target(1.2)).toMatchObject({ measured: '1.200 / 0.600 s/1k = 2.00×', met: false });
  });
});
