/**
 * `bench/RESULTS.md`: the last full run, written by `npm run bench`. The section between the
 * `optimisations` markers is written by hand (what each change gained) and kept across regenerations.
 */
import { existsSync, readFileSync } from 'node:fs';
import { machineLine } from './machine.ts';
import { markdownFixedRate, markdownRatios, markdownTable, markdownTargets, warmUpText } from './report.ts';
import type { RunReport } from './report.ts';
import { PEER_TITLES } from './peer-registry.ts';

const START = '<!-- optimisations:start -->';
const END = '<!-- optimisations:end -->';
const PLACEHOLDER =
  '(Nothing recorded yet: each optimisation of the gateway adds a line here, with before/after numbers.)';

/** The hand-written optimisations section of an existing RESULTS.md, markers included. */
export function keptSection(path: string): string {
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    if (start >= 0 && end > start) return text.slice(start, end + END.length);
  }
  return `${START}\n${PLACEHOLDER}\n${END}`;
}

/** The text of RESULTS.md for `report`, keeping `optimisations` (from `keptSection`). */
export function renderResultsMd(report: RunReport, optimisations: string): string {
  const { settings } = report;
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (a full run); see [README.md](README.md) for what the peers and workloads are.',
    'Do not edit by hand except between the optimisations markers.',
    '',
    `- Machine: ${machineLine(report.machine)}`,
    `- Run: ${report.startedAt} to ${report.finishedAt}; ${settings.rounds} interleaved rounds of ${settings.roundSeconds} s per peer and workload after a ${warmUpText(settings)}; medians.`,
    `- Peers: ${settings.peers.map((peer) => `${peer} ${PEER_TITLES[peer]}`).join('; ')}.`,
    '',
    '![Requests per second by workload and peer](results/chart.svg)',
    '',
    '## Table',
    '',
    markdownTable(report),
    '',
    '## Ratios (req/s of P4 over each peer)',
    '',
    markdownRatios(report),
    '',
    '## Added latency at a fixed rate',
    '',
    markdownFixedRate(report.fixedRate),
    '',
    '## Targets',
    '',
    markdownTargets(report.targets),
    ...(report.notes.length > 0 ? ['', '## Notes', '', ...report.notes.map((note) => `- ${note}`)] : []),
    '',
    '## What each optimisation gained',
    '',
    optimisations,
    '',
  ].join('\n');
}
