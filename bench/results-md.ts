/**
 * `bench/RESULTS.md`: the last full run, written by `npm run bench`. The section between the
 * `optimisations` markers is written by hand (what each change gained) and kept across regenerations; the
 * one between the `features` markers is written by `npm run bench -- --features` and kept too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { machineLine } from './machine.ts';
import { markdownFixedRate, markdownRatios, markdownTable, markdownTargets, warmUpText } from './report.ts';
import type { RunReport } from './report.ts';
import { peerTitle } from './peer-titles.ts';

/** The sections of RESULTS.md that a full run keeps, and what each holds before anything was written. */
const PLACEHOLDERS = {
  optimisations:
    '(Nothing recorded yet: each optimisation of the gateway adds a line here, with before/after numbers.)',
  features: '(Not measured yet: `npm run bench -- --features` writes this table.)',
} as const;

/** A kept section of RESULTS.md. */
export type SectionName = keyof typeof PLACEHOLDERS;

const markers = (name: SectionName) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

/** The section `name` of an existing RESULTS.md, markers included (a placeholder when there is none). */
export function keptSection(path: string, name: SectionName = 'optimisations'): string {
  const { start, end } = markers(name);
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from >= 0 && to > from) return text.slice(from, to + end.length);
  }
  return `${start}\n${PLACEHOLDERS[name]}\n${end}`;
}

/** `text` with section `name` holding `content`; appended under `heading` when `text` has no such section. */
export function withSection(text: string, name: SectionName, content: string, heading: string): string {
  const { start, end } = markers(name);
  const section = `${start}\n\n${content}\n\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) return text.slice(0, from) + section + text.slice(to + end.length);
  return `${text.trimEnd()}\n\n## ${heading}\n\n${section}\n`;
}

/** The heading the feature-cost section sits under. */
export const FEATURES_HEADING = 'What each feature costs (`npm run bench -- --features`)';

/**
 * The text of RESULTS.md for `report`, keeping `optimisations` and `features` (from `keptSection`).
 */
export function renderResultsMd(
  report: RunReport,
  optimisations: string,
  features = `${markers('features').start}\n${PLACEHOLDERS.features}\n${markers('features').end}`,
): string {
  const { settings } = report;
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (a full run); see [README.md](README.md) for what the peers and workloads are.',
    'Do not edit by hand except between the optimisations markers.',
    '',
    `- Machine: ${machineLine(report.machine)}`,
    `- Run: ${report.startedAt} to ${report.finishedAt}; ${settings.rounds} interleaved rounds of ${settings.roundSeconds} s per peer and workload after a ${warmUpText(settings)}; medians.`,
    `- Peers: ${settings.peers.map((peer) => `${peer} ${peerTitle(peer)}`).join('; ')}.`,
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
    '## The tail at a fixed rate (P0, F1 and P4, paired rounds)',
    '',
    markdownFixedRate(report.fixedRate),
    '',
    '## Targets',
    '',
    markdownTargets(report.targets),
    ...(report.notes.length > 0 ? ['', '## Notes', '', ...report.notes.map((note) => `- ${note}`)] : []),
    '',
    `## ${FEATURES_HEADING}`,
    '',
    features,
    '',
    '## What each optimisation gained',
    '',
    optimisations,
    '',
  ].join('\n');
}
