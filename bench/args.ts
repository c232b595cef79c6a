/**
 * The command line of `npm run bench`: `--quick`, `--peers=P1,P4`, `--workloads=W1,W3`, `--features`,
 * `--gc`, and overrides of the timings for experiments. Parsed by `node:util`'s `parseArgs` (strict: an unknown option
 * or a value where none belongs fails with the usage).
 */
import { parseArgs } from 'node:util';
import { FEATURE_IDS } from './features/feature-peers.ts';
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
  /** Paired rounds of the fixed-rate run (default: `rounds`). */
  fixedRateRounds: number;
  /** Seconds per fixed-rate round (default: the round length, at least 1 s). */
  fixedRateSeconds: number;
  /** Count each peer's garbage collections: GC time and allocated bytes per request (`gc/`). */
  gc: boolean;
  /** Write RESULTS.md even though the run is quick or filtered. */
  writeResultsMd: boolean;
  /** A checkout of the gateway (with its own node_modules) run as peer PB beside P4. */
  baseline: string | undefined;
  /** The feature-cost mode (`bench/features/`): P4 beside copies of itself with one feature neutralised. */
  features: boolean;
  help: boolean;
}

/** `--help` text. */
export const USAGE = `npm run bench -- [options]
  --quick               about one minute instead of about five (shorter rounds)
  --peers=P0,P1,...     only these peers (P0 emulator, P1 pass-through, P2 naive Apollo, P3 RESTDataSource,
                        F1 floor: Fastify + Apollo with the gateway's options, P4 gateway)
  --workloads=W1,...    only these workloads (W1 object, W2 page, W3 N+1, W3T N+1 through the typed API,
                        W4 save, W5 hot object, W2H hot page)
  --rounds=N            measured rounds per peer and workload (default 3)
  --duration=S          seconds per round (default 3, quick 0.5)
  --warmup=S            seconds of warm-up per peer and workload (default 1, quick 0.25)
  --first-warmup=S      seconds of warm-up per peer before the first workload (default 5, quick 1)
  --rate=N              requests per second of the fixed-rate tail run: W1 to P0, F1 and P4, 32 connections
                        each its own session, paired rounds (order reversed every round) (default 500;
                        0 = skip it)
  --rate-rounds=N       paired rounds of the fixed-rate run (default: --rounds)
  --rate-duration=S     seconds per fixed-rate round (default: --duration, at least 1)
  --gc                  count every peer's garbage collections (v8.GCProfiler, loaded with --import):
                        GC µs and allocated KiB per request, full collections, in the table and RESULTS.md
  --results-md          write bench/RESULTS.md even for a quick or filtered run
  --baseline=DIR        also run the gateway of another checkout (e.g. a git worktree of main) as peer PB,
                        for a before/after in one run (PB's cells are in the table; the summary ignores it)
  --features            what each feature costs: P4 loaded at the same time as a copy of itself with one
                        feature neutralised (P4-log, P4-metrics, P4-coalescing, P4-resilience, P4-loader,
                        P4-limits, P4-fastify, P4-cache (CACHE=off), P4-all; P4-none swaps nothing: the
                        noise) or as the floor F1; default workload W1, 5 rounds, each after --warmup s of
                        unmeasured load;
                        writes the table into bench/RESULTS.md`;

/** The options `node:util` parses; values stay strings so the messages below can name the flag. */
const OPTIONS = {
  quick: { type: 'boolean' },
  peers: { type: 'string' },
  workloads: { type: 'string' },
  rounds: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  'first-warmup': { type: 'string' },
  rate: { type: 'string' },
  'rate-rounds': { type: 'string' },
  'rate-duration': { type: 'string' },
  gc: { type: 'boolean' },
  'results-md': { type: 'boolean' },
  baseline: { type: 'string' },
  features: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Every peer `--peers` accepts: the normal ones and P4's feature-cost copies (`P4-log`, …). */
export const ALL_PEER_IDS: readonly PeerId[] = [
  ...PEER_IDS,
  ...FEATURE_IDS.map((feature) => `P4-${feature}` as const),
];

/** Comma-separated ids, each one of `allowed` (any case); answered in `allowed`'s order. */
export function idList<T extends string>(value: string, allowed: readonly T[], flag: string): T[] {
  const items = new Set(value.split(',').map((item) => item.trim().toUpperCase()));
  for (const item of items) {
    if (!allowed.some((id) => id.toUpperCase() === item))
      throw new Error(`${flag}: unknown ${item} (expected ${allowed.join(', ')})`);
  }
  return allowed.filter((id) => items.has(id.toUpperCase()));
}

/** A number ≥ 0, or an error naming the flag and what it got. */
export function nonNegative(value: string, flag: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0)
    throw new Error(`${flag}: expected a number ≥ 0, got ${value}`);
  return parsed;
}

/** Parses the arguments after `node bench/run.ts`. Throws with a clear message on a bad one. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, { cause: error });
  }
  const quick = values.quick === true;
  const features = values.features === true;
  // The feature pairs load two peers at once and measure CPU only (features/run-feature-pairs.ts).
  if (features && values.gc === true) throw new Error(`--gc: not with --features\n${USAGE}`);
  const rate = nonNegative(values.rate ?? '500', '--rate');
  const defaultWorkloads: readonly WorkloadId[] = features ? ['W1'] : WORKLOAD_IDS;
  const rounds = Math.max(1, Math.round(nonNegative(values.rounds ?? (features ? '5' : '3'), '--rounds')));
  const roundSeconds = nonNegative(values.duration ?? (quick ? '0.5' : '3'), '--duration');
  return {
    quick,
    peers: values.peers === undefined ? undefined : idList(values.peers, ALL_PEER_IDS, '--peers'),
    workloads:
      values.workloads === undefined
        ? [...defaultWorkloads]
        : idList(values.workloads, WORKLOAD_IDS, '--workloads'),
    rounds,
    roundSeconds,
    warmupSeconds: nonNegative(values.warmup ?? (quick ? '0.25' : '1'), '--warmup'),
    firstWarmupSeconds: nonNegative(values['first-warmup'] ?? (quick ? '1' : '5'), '--first-warmup'),
    fixedRate: rate === 0 || features ? undefined : rate,
    fixedRateRounds:
      values['rate-rounds'] === undefined
        ? rounds
        : Math.max(1, Math.round(nonNegative(values['rate-rounds'], '--rate-rounds'))),
    fixedRateSeconds: Math.max(
      1,
      nonNegative(values['rate-duration'] ?? String(roundSeconds), '--rate-duration'),
    ),
    gc: values.gc === true,
    writeResultsMd: values['results-md'] === true,
    baseline: values.baseline,
    features,
    help: values.help === true,
  };
}
