/**
 * `npm run bench -- --features`: P4 beside each partner (P4 without one feature, and the floor F1), each
 * pair loaded at the same time (`run-feature-pairs.ts`); prints the cost table and writes it into its
 * section of RESULTS.md, with everything in `results/features-<timestamp>.json`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from '../args.ts';
import { startLoadClient, type LoadClient } from '../load-client.ts';
import { describeMachine, machineLine } from '../machine.ts';
import type { PeerEnvironment, RunningPeer } from '../peer-registry.ts';
import { clockTicksPerSecond } from '../../support/proc-stats.ts';
import { FEATURES_HEADING, withSection } from '../results-md.ts';
import { writeResultsMd } from '../write-results.ts';
import { WORKLOADS } from '../workloads.ts';
import { featureCosts, markdownFeatureCosts } from './feature-costs.ts';
import { runFeaturePairs, type FeaturePair } from './run-feature-pairs.ts';

const benchDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs the pairs, prints and writes the table. The second load process is started and closed here. */
export async function runFeatures(
  options: BenchOptions,
  env: PeerEnvironment,
  peers: readonly RunningPeer[],
  load: LoadClient,
  notes: string[],
  log: (line: string) => void,
): Promise<void> {
  const startedAt = new Date();
  const full = peers.find((peer) => peer.id === 'P4');
  if (full === undefined) throw new Error('--features needs P4');
  const partners = peers.filter((peer) => peer !== full);
  const second = startLoadClient(env.logDir, 'load-2');
  const pairs: FeaturePair[] = [];
  try {
    const context = {
      loads: [load, second] as const,
      ticksPerSecond: clockTicksPerSecond(),
      env,
      log,
      notes,
    };
    let warmupSeconds = Math.max(options.warmupSeconds, options.firstWarmupSeconds);
    for (const workload of options.workloads) {
      log(`${workload}: ${WORKLOADS[workload].title}, P4 beside ${partners.map((p) => p.id).join(', ')}`);
      pairs.push(...(await runFeaturePairs(context, full, partners, workload, options, warmupSeconds)));
      warmupSeconds = options.warmupSeconds;
    }
  } finally {
    await second.close();
  }
  const table = markdownFeatureCosts(featureCosts(pairs));
  const machine = describeMachine(startedAt);
  const content = [
    `Measured ${startedAt.toISOString()} on ${machineLine(machine)}: ${options.rounds} rounds of ` +
      `${options.roundSeconds} s per pair, P4 and its partner loaded at the same time by two load processes ` +
      `(${options.workloads.map((w) => `${w} ${WORKLOADS[w].connections} connections each`).join(', ')}); ` +
      'the cost is the median over rounds of P4 minus the partner in the same round. The switches are ' +
      'bench-only module stand-ins (`bench/features/`), not settings.',
    table,
    ...(notes.length > 0 ? ['Notes: ' + notes.join('; ')] : []),
  ].join('\n\n');
  console.log(content);
  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const json = { machine, options, startedAt: startedAt.toISOString(), pairs, notes };
  writeFileSync(
    join(resultsDir, `features-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify(json, null, 2)}\n`,
  );
  const path = join(benchDir, 'RESULTS.md');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  await writeResultsMd(withSection(text, 'features', content, FEATURES_HEADING), log);
}
