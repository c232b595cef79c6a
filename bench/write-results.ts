/**
 * What a run leaves behind: `results/<timestamp>.json`, `latest.json` and the chart; for a full run
 * RESULTS.md (its kept sections untouched).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { renderChart } from './chart.ts';
import { machineLine } from './machine.ts';
import type { RunReport } from './report.ts';
import { keptSection, renderResultsMd } from './results-md.ts';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/** RESULTS.md, formatted as the repository's Prettier settings want it, so `npm test`'s format check passes. */
export async function writeResultsMd(text: string, log: (line: string) => void): Promise<void> {
  const resultsMd = join(benchDir, 'RESULTS.md');
  const config = (await resolveConfig(resultsMd)) ?? {};
  writeFileSync(resultsMd, await format(text, { ...config, parser: 'markdown' }));
  log(`wrote ${resultsMd}`);
}

/** The results of a run; `full` also writes the chart RESULTS.md embeds and RESULTS.md itself. */
export async function writeOutputs(
  report: RunReport,
  full: boolean,
  log: (line: string) => void,
): Promise<void> {
  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(resultsDir, `${report.startedAt.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  const chart = renderChart(
    report.cells,
    report.settings.workloads,
    report.settings.peers,
    `median req/s; ${machineLine(report.machine)}`,
  );
  writeFileSync(join(resultsDir, 'latest.svg'), chart);
  if (!full) return;
  writeFileSync(join(resultsDir, 'chart.svg'), chart);
  const resultsMd = join(benchDir, 'RESULTS.md');
  await writeResultsMd(
    renderResultsMd(report, keptSection(resultsMd), keptSection(resultsMd, 'features')),
    log,
  );
}
