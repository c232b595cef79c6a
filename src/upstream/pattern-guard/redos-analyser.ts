/**
 * The ReDoS checker behind the pattern guard: `recheck`, which finds both exponential and polynomial
 * backtracking (with an attack string) by automata theory, falling back to fuzzing for patterns too large
 * for its automaton.
 *
 * It runs as one helper: a single `worker_threads` Worker with a live-heap cap of its own, running
 * recheck's pure-JavaScript (Scala.js) build one analysis at a time. Never recheck's own backends: its
 * native agent (a child process, `recheck-linux-x64`) took 642 MiB beside a 154 MiB gateway under a pattern
 * flood, with no way to cap its heap, and concurrent first calls each spawned an agent that stayed.
 *
 * A verdict depends on the pattern, never on the machine's load: recheck's only clock is its deadline
 * check, which reads `performance.now()`; the worker puts a counter in its place, so the deadline is a
 * budget of steps (one per deadline check: a matching step of its fuzzer, a state of its automata), and
 * every per-phase wall clock (`incubationTimeout`, `attackTimeout`, `seedingTimeout`) is switched off. The
 * fuzzer's sizes are lowered so that its memory fits the cap (defaults: one pattern took 217 MiB in 3 s).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { RECHECK_WORKER_SOURCE, recheckParams } from './recheck-worker-source.ts';

/** A hot part of the analysed source (checker indices). */
export interface Hotspot {
  start: number;
  end: number;
}

/** What the checker found for one source. */
export type Analysis =
  | { status: 'safe' }
  | { status: 'vulnerable'; complexity: 'exponential'; hotspots: Hotspot[]; attack: string }
  | { status: 'vulnerable'; complexity: 'polynomial'; degree: number; hotspots: Hotspot[]; attack: string }
  /**
   * The checker gave up: `steps` (its step budget spent), `memory` (its heap cap reached): both decided by
   * the pattern alone; `cancel`, or another failure. The guard fails closed.
   */
  | { status: 'unknown'; error: string };

/**
 * Analyses `source` (ECMAScript syntax) with `flags`; must honour `signal`. `timeoutMillis` is the guard's
 * wall-clock backstop, for analysers without a budget of their own (tests stand in slow or failing ones).
 */
export type Analyser = (
  source: string,
  flags: string,
  timeoutMillis: number,
  signal: AbortSignal,
) => Promise<Analysis>;

/** Options of {@link createRecheckAnalyser}. */
export interface RecheckAnalyserOptions {
  /**
   * Steps one analysis may take (recheck's deadline checks: one per matching step of its fuzzer, per state
   * of its automata). Default `500_000`: measured 0.7 to 2.5 s of fuzzing on a loaded 2-core machine; the
   * automata's steps cost more, but they allocate, so the heap cap ends a blow-up first (about 1 s).
   */
  stepBudget?: number;
  /**
   * The worker's live heap cap, in MiB (recheck's 2.9 MB module alone holds about 20): past it the analysis
   * stops and the pattern is refused. V8's own limit is set at twice this, as a last resort. Default `64`.
   */
  maxHeapMiB?: number;
}

/** The checker's one helper; see the module comment. */
export interface RecheckAnalyser {
  analyse: Analyser;
  /** Starts the worker and analyses one pattern, so the first caller's pattern meets a warm checker. */
  warmUp(): Promise<void>;
  /** Ends the worker; an analysis in flight answers `cancel`. */
  close(): Promise<void>;
  /** Worker threads alive: 0 or 1. */
  threads(): number;
}

interface Diagnostics {
  status: 'safe' | 'vulnerable' | 'unknown';
  complexity?: { type: string; degree?: number };
  hotspot?: Hotspot[];
  attack?: { string: string };
  error?: { kind: string };
}

interface WorkerAnswer {
  id: number;
  diagnostics: Diagnostics;
  used: { steps: number; overHeap: boolean };
}

interface Pending {
  resolve: (analysis: Analysis) => void;
}

/** Creates the checker's helper; its worker starts on {@link RecheckAnalyser.warmUp} or the first pattern. */
export function createRecheckAnalyser(options: RecheckAnalyserOptions = {}): RecheckAnalyser {
  const params = recheckParams(options.stepBudget ?? 500_000);
  const maxHeapMiB = options.maxHeapMiB ?? 64;
  const recheckPath = createRequire(import.meta.url).resolve('recheck');
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  function settleAll(analysis: Analysis): void {
    for (const entry of pending.values()) entry.resolve(analysis);
    pending.clear();
  }

  function start(): Worker {
    if (worker) return worker;
    const started = new Worker(RECHECK_WORKER_SOURCE, {
      eval: true,
      workerData: { recheckPath, heapCapBytes: maxHeapMiB * 1024 * 1024 },
      resourceLimits: { maxOldGenerationSizeMb: 2 * maxHeapMiB, maxYoungGenerationSizeMb: 8 },
    });
    started.on('message', ({ id, diagnostics, used }: WorkerAnswer) => {
      const entry = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) started.unref();
      entry?.resolve(toAnalysis(diagnostics, used.overHeap));
    });
    // The heap cap reached (ERR_WORKER_OUT_OF_MEMORY) or a crash: the analysis in flight is refused, and
    // the next pattern starts a new worker, so there is never more than one.
    started.on('error', (error: { code?: string }) => {
      if (worker === started) worker = undefined;
      settleAll({ status: 'unknown', error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash' });
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      settleAll({ status: 'unknown', error: 'cancel' });
    });
    started.unref();
    worker = started;
    return started;
  }

  const analyse: Analyser = (source, flags, _timeoutMillis, signal) =>
    new Promise<Analysis>((resolve) => {
      if (signal.aborted) {
        resolve({ status: 'unknown', error: 'cancel' });
        return;
      }
      const running = start();
      const id = nextId++;
      pending.set(id, { resolve });
      running.ref();
      running.postMessage({ id, source, flags, params });
      // Analyses run one at a time and cannot be interrupted in the worker: a cancelled one ends the
      // worker (the others waiting in it are refused as cancelled too; the guard's backstop is rare).
      signal.addEventListener(
        'abort',
        () => {
          if (!pending.has(id)) return;
          if (worker === running) worker = undefined;
          void running.terminate();
        },
        { once: true },
      );
    });

  return {
    analyse,
    async warmUp() {
      await analyse('^[a-z]+x*@$', 'u', 0, new AbortController().signal);
    },
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
      settleAll({ status: 'unknown', error: 'cancel' });
    },
    threads: () => (worker ? 1 : 0),
  };
}

function toAnalysis(diagnostics: Diagnostics, overHeap: boolean): Analysis {
  const hotspots = diagnostics.hotspot ?? [];
  const attack = diagnostics.attack?.string ?? '';
  switch (diagnostics.status) {
    case 'safe':
      return { status: 'safe' };
    case 'vulnerable':
      return diagnostics.complexity?.type === 'exponential'
        ? { status: 'vulnerable', complexity: 'exponential', hotspots, attack }
        : {
            status: 'vulnerable',
            complexity: 'polynomial',
            degree: diagnostics.complexity?.degree ?? 2,
            hotspots,
            attack,
          };
    case 'unknown': {
      const kind = diagnostics.error?.kind ?? 'unexpected';
      if (kind !== 'timeout') return { status: 'unknown', error: kind };
      return { status: 'unknown', error: overHeap ? 'memory' : 'steps' };
    }
  }
}
