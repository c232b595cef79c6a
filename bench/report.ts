/**
 * The Markdown a run prints and RESULTS.md embeds: the machine, the main table, the ratios, the
 * fixed-rate latency and the targets.
 */
import { machineLine } from './machine.ts';
import type { MachineInfo } from './machine.ts';
import { peerTitle } from './peer-titles.ts';
import type { PeerId } from './peer-registry.ts';
import type { FixedRateSummary } from './fixed-rate.ts';
import { errorCount, RATIO_PEERS } from './summary.ts';
import type { CellSummary, Ratios } from './summary.ts';
import type { TargetCheck } from './targets.ts';
import { WORKLOADS } from './workloads.ts';
import type { WorkloadId } from './workloads.ts';

/** How a run was configured, as the report states it. */
export interface RunSettings {
  quick: boolean;
  rounds: number;
  roundSeconds: number;
  warmupSeconds: number;
  /** Warm-up before the first workload (absent in results written before it existed). */
  firstWarmupSeconds?: number;
  peers: PeerId[];
  workloads: WorkloadId[];
  fixedRate: number | undefined;
  /** Whether the peers counted their garbage collections (`--gc`; absent in older results). */
  gc?: boolean;
}

/** Everything a run produced; also the shape of `bench/results/*.json`. */
export interface RunReport {
  machine: MachineInfo;
  settings: RunSettings;
  startedAt: string;
  finishedAt: string;
  cells: CellSummary[];
  ratios: Ratios;
  fixedRate: FixedRateSummary | undefined;
  targets: TargetCheck[];
  notes: string[];
}

const num = (value: number, digits: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function errorsCell(cell: CellSummary): string {
  const total = errorCount(cell);
  if (total === 0) return '0';
  return `**${total}** (${cell.mismatches} wrong body, ${cell.non2xx} non-2xx, ${cell.socketErrors} socket)`;
}

/** The GC columns' cells (`–` where the peer did not count: P0, or a run without `--gc`). */
export function gcCells(values: {
  gcMicrosPerRequest?: number | undefined;
  allocatedBytesPerRequest?: number | undefined;
  majorGcs?: number | undefined;
}): string {
  if (values.gcMicrosPerRequest === undefined) return '– | – | –';
  return `${num(values.gcMicrosPerRequest, 1)} | ${num((values.allocatedBytesPerRequest ?? 0) / 1024, 1)} | ${values.majorGcs ?? 0}`;
}

/** The GC columns' headers. */
const GC_HEADERS = 'GC µs/req | alloc KiB/req | full GCs';

/** The main table: one row per workload and peer; the GC columns when any peer counted. */
export function markdownTable(report: RunReport): string {
  const gc = report.cells.some((cell) => cell.gcMicrosPerRequest !== undefined);
  const lines = [
    `| workload | peer | req/s | p50 ms | p99 ms | upstream calls/req (1 client) | upstream calls/req (load) | CPU s/1k req | ${gc ? `${GC_HEADERS} | ` : ''}peak RSS MiB | errors |`,
    `|---|---|--:|--:|--:|--:|--:|--:|${gc ? '--:|--:|--:|' : ''}--:|---|`,
  ];
  for (const workload of report.settings.workloads) {
    for (const cell of report.cells.filter((c) => c.workload === workload)) {
      lines.push(
        `| ${workload} ${WORKLOADS[workload].title} | ${cell.peer} | ${num(cell.requestsPerSecond, 0)} | ${num(cell.p50Millis, 2)} | ` +
          `${num(cell.p99Millis, 2)} | ${num(cell.sequentialCallsPerRequest, 2)} | ${num(cell.upstreamCallsPerRequest, 2)} | ${num(cell.cpuSecondsPer1000, 3)} | ` +
          `${gc ? `${gcCells(cell)} | ` : ''}${num(cell.peakRssBytes / 1024 ** 2, 0)} | ${errorsCell(cell)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** P4's req/s over P1's, F1's, P2's and P3's, per workload. */
export function markdownRatios(report: RunReport): string {
  const lines = [
    `| workload | ${RATIO_PEERS.map((peer) => `P4/${peer}`).join(' | ')} |`,
    `|---|${RATIO_PEERS.map(() => '--:').join('|')}|`,
  ];
  for (const workload of report.settings.workloads) {
    const row = report.ratios[workload] ?? {};
    const show = (value: number | undefined): string => (value === undefined ? '–' : `${num(value, 2)}×`);
    lines.push(`| ${workload} | ${RATIO_PEERS.map((peer) => show(row[`P4/${peer}`])).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The fixed-rate run, when there was one: each peer's medians, its rounds' p99, and P4's differences. */
export function markdownFixedRate(fixed: FixedRateSummary | undefined): string {
  if (fixed === undefined) return '(no fixed-rate run)';
  const peers = Object.entries(fixed.peers);
  const gc = peers.some(([, value]) => value.gcMicrosPerRequest !== undefined);
  const lines = [
    ...(fixed.rounds === undefined
      ? []
      : [
          `${fixed.rounds} paired rounds (order reversed every round), ${fixed.connections ?? 32} connections each its own session; medians of the rounds.`,
          '',
        ]),
    `| peer at ${fixed.rate} req/s (W1) | achieved req/s | p50 ms | p99 ms | p99 ms by round | ${gc ? `${GC_HEADERS} | ` : ''}errors |`,
    `|---|--:|--:|--:|--:|${gc ? '--:|--:|--:|' : ''}--:|`,
  ];
  for (const [peer, value] of peers) {
    const byRound = (value.roundP99Millis ?? []).map((p99) => num(p99, 2)).join(', ');
    lines.push(
      `| ${peer} | ${num(value.requestsPerSecond, 0)} | ${num(value.p50Millis, 2)} | ${num(value.p99Millis, 2)} | ${byRound} | ` +
        `${gc ? `${gcCells(value)} | ` : ''}${value.errors} |`,
    );
  }
  const difference = (label: string, p50: number | undefined, p99: number | undefined): string[] =>
    p50 === undefined || p99 === undefined
      ? []
      : [`${label}: p50 ${num(p50, 2)} ms, p99 ${num(p99, 2)} ms (median of the rounds' differences).`];
  const sentences = [
    ...difference('P4 over F1, its floor', fixed.p50OverFloorMillis, fixed.p99OverFloorMillis),
    ...difference('P4 over P0, the upstream itself', fixed.addedP50Millis, fixed.addedP99Millis),
  ];
  if (sentences.length > 0) lines.push('', ...sentences.map((sentence) => `- ${sentence}`));
  return lines.join('\n');
}

/** The issue's targets with this run's numbers. */
export function markdownTargets(targets: readonly TargetCheck[]): string {
  const mark = (met: boolean | undefined): string =>
    met === undefined ? 'n/a' : met ? 'met' : '**not met**';
  return [
    '| target | measured | |',
    '|---|--:|---|',
    ...targets.map((t) => `| ${t.target} | ${t.measured} | ${mark(t.met)} |`),
  ].join('\n');
}

/** `1 s warm-up (5 s before the first workload)`. */
export function warmUpText(settings: RunSettings): string {
  const first = settings.firstWarmupSeconds;
  return first === undefined || first <= settings.warmupSeconds
    ? `${settings.warmupSeconds} s warm-up`
    : `${settings.warmupSeconds} s warm-up (${first} s before the first workload)`;
}

/** The whole report as printed at the end of a run. */
export function markdownReport(report: RunReport): string {
  const { settings } = report;
  const peers = settings.peers.map((peer) => `- ${peer}: ${peerTitle(peer)}`).join('\n');
  return [
    `Machine: ${machineLine(report.machine)}`,
    '',
    `${settings.quick ? 'Quick run' : 'Run'}: ${settings.rounds} interleaved rounds of ${settings.roundSeconds} s per peer and ` +
      `workload after a ${warmUpText(settings)}; medians shown (peak RSS: highest of the rounds; errors: sum).`,
    '',
    peers,
    '',
    markdownTable(report),
    '',
    'Ratios of req/s:',
    '',
    markdownRatios(report),
    '',
    'The tail at a fixed rate:',
    '',
    markdownFixedRate(report.fixedRate),
    '',
    'Targets:',
    '',
    markdownTargets(report.targets),
    ...(report.notes.length > 0 ? ['', 'Notes:', '', ...report.notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
}
