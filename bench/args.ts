/**
 * The command line of `npm run bench`: `--quick`, `--peers=P1,P4`, `--workloads=W1,W3`, and overrides of
 * the timings for experiments.
 */
import { PEER_IDS } from './peer-registry.ts';
import type { PeerId } from './peer-registry.ts';
import { WORKLOAD_IDS } from './workloads.ts';
import type { WorkloadId } from './workloads.ts';

/** The options of one run. Durations in seconds. */
export interface BenchOptions {
  quick: boolean;
  /** Peers asked for explicitly (`--peers`); `undefined` = every peer that exists. */
  peers: PeerId[] | undefined;
  workloads: WorkloadId[];
  rounds: number;
  roundSeconds: number;
  warmupSeconds: number;
  /**
   * Warm-up of the first workload of the run: every peer's JIT compiler settles there (in a 1 s warm-up the
   * Apollo peers were still 20-30 % short of their steady speed through W1's three rounds).
   */
  firstWarmupSeconds: number;
  /** Requests per second of the fixed-rate run; `undefined` = no fixed-rate run. */
  fixedRate: number | undefined;
  /** Write RESULTS.md even though the run is quick or filtered. */
  writeResultsMd: boolean;
  /** A checkout of the gateway (with its own node_modules) run as peer PB beside P4. */
  baseline: string | undefined;
  help: boolean;
}

/** `--help` text. */
export const USAGE = `npm run bench -- [options]
  --quick               about one minute instead of about five (shorter rounds)
  --peers=P0,P1,...     only these peers (P0 emulator, P1 pass-through, P2 naive Apollo, P3 RESTDataSource, P4 gateway)
  --workloads=W1,...    only these workloads (W1 object, W2 page, W3 N+1, W4 save, W5 hot object)
  --rounds=N            measured rounds per peer and workload (default 3)
  --duration=S          seconds per round (default 3, quick 0.5)
  --warmup=S            seconds of warm-up per peer and workload (default 1, quick 0.25)
  --first-warmup=S      seconds of warm-up per peer before the first workload (default 5, quick 1)
  --rate=N              requests per second of the fixed-rate run (default 500; 0 = skip it)
  --results-md          write bench/RESULTS.md even for a quick or filtered run
  --baseline=DIR        also run the gateway of another checkout (e.g. a git worktree of main) as peer PB,
                        for a before/after in one run (PB's cells are in the table; the summary ignores it)`;

function list<T extends string>(value: string, allowed: readonly T[], flag: string): T[] {
  const items = value.split(',').map((item) => item.trim().toUpperCase());
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item))
      throw new Error(`${flag}: unknown ${item} (expected ${allowed.join(', ')})`);
  }
  return allowed.filter((id) => items.includes(id));
}

function positive(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${flag}: expected a number ≥ 0, got ${value}`);
  return parsed;
}

/** Parses the arguments after `node bench/run.ts`. Throws with a clear message on a bad one. */
export function parseArgs(argv: readonly string[]): BenchOptions {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (match?.[1] === undefined) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    flags.set(match[1], match[2] ?? 'true');
  }
  const known = new Set([
    'quick',
    'peers',
    'workloads',
    'rounds',
    'duration',
    'warmup',
    'first-warmup',
    'rate',
    'results-md',
    'baseline',
    'help',
  ]);
  for (const flag of flags.keys())
    if (!known.has(flag)) throw new Error(`unknown option --${flag}\n${USAGE}`);
  const quick = flags.has('quick');
  const get = (flag: string): string | undefined => flags.get(flag);
  const rate = positive(get('rate') ?? '500', '--rate');
  const peersFlag = get('peers');
  const workloadsFlag = get('workloads');
  return {
    quick,
    peers: peersFlag === undefined ? undefined : list(peersFlag, PEER_IDS, '--peers'),
    workloads:
      workloadsFlag === undefined ? [...WORKLOAD_IDS] : list(workloadsFlag, WORKLOAD_IDS, '--workloads'),
    rounds: Math.max(1, Math.round(positive(get('rounds') ?? '3', '--rounds'))),
    roundSeconds: positive(get('duration') ?? (quick ? '0.5' : '3'), '--duration'),
    warmupSeconds: positive(get('warmup') ?? (quick ? '0.25' : '1'), '--warmup'),
    firstWarmupSeconds: positive(get('first-warmup') ?? (quick ? '1' : '5'), '--first-warmup'),
    fixedRate: rate === 0 ? undefined : rate,
    writeResultsMd: flags.has('results-md'),
    baseline: get('baseline'),
    help: flags.has('help'),
  };
}
