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
  /**
   * Starts the worker and analyses one pattern, so the first caller's pattern meets a warm checker; answers
   * whether the checker gave a verdict (when not, patterns that need analysis are refused: fail closed).
   */
  warmUp(): Promise<boolean>;
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
  diagnostics: Diagnostics;
  used: { steps: number; overHeap: boolean };
}

/** An analysis waiting for the worker or running in it. */
interface Job {
  source: string;
  flags: string;
  resolve: (analysis: Analysis) => void;
}

/** Creates the checker's helper; its worker starts on {@link RecheckAnalyser.warmUp} or the first pattern. */
export function createRecheckAnalyser(options: RecheckAnalyserOptions = {}): RecheckAnalyser {
  const params = recheckParams(options.stepBudget ?? 500_000);
  const maxHeapMiB = options.maxHeapMiB ?? 64;
  const recheckPath = createRequire(import.meta.url).resolve('recheck');
  let worker: Worker | undefined;
  // Jobs wait here, not in the worker, so that a cancelled waiting job is dropped without touching the
  // running one; only the job at the head runs.
  const waiting: Job[] = [];
  let running: Job | undefined;

  function finish(job: Job, analysis: Analysis): void {
    if (running === job) running = undefined;
    job.resolve(analysis);
    next();
  }

  function start(): Worker {
    if (worker) return worker;
    const started = new Worker(RECHECK_WORKER_SOURCE, {
      eval: true,
      workerData: { recheckPath, heapCapBytes: maxHeapMiB * 1024 * 1024 },
      resourceLimits: { maxOldGenerationSizeMb: 2 * maxHeapMiB, maxYoungGenerationSizeMb: 8 },
    });
    started.on('message', ({ diagnostics, used }: WorkerAnswer) => {
      if (worker === started && running) finish(running, toAnalysis(diagnostics, used.overHeap));
    });
    // V8's own limit reached (ERR_WORKER_OUT_OF_MEMORY) or a crash: the running analysis is refused, and
    // the next one starts a new worker, so there is never more than one.
    started.on('error', (error: { code?: string }) => {
      if (worker !== started) return;
      worker = undefined;
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (running) finish(running, { status: 'unknown', error: memory ? 'memory' : 'crash' });
    });
    started.on('exit', () => {
      if (worker !== started) return;
      worker = undefined;
      if (running) finish(running, { status: 'unknown', error: 'crash' });
    });
    worker = started;
    return started;
  }

  function next(): void {
    if (running) return;
    const job = waiting.shift();
    if (!job) {
      worker?.unref();
      return;
    }
    running = job;
    const current = start();
    current.ref();
    current.postMessage({ source: job.source, flags: job.flags, params });
  }

  const analyse: Analyser = (source, flags, _timeoutMillis, signal) =>
    new Promise<Analysis>((resolve) => {
      if (signal.aborted) {
        resolve({ status: 'unknown', error: 'cancel' });
        return;
      }
      const job: Job = { source, flags, resolve };
      waiting.push(job);
      // A waiting job leaves the line; the running one cannot be interrupted inside recheck, so its
      // worker ends (the guard's wall-clock backstop: rare, the step budget ends analyses first).
      signal.addEventListener(
        'abort',
        () => {
          const place = waiting.indexOf(job);
          if (place >= 0) {
            waiting.splice(place, 1);
            resolve({ status: 'unknown', error: 'cancel' });
          } else if (running === job) {
            const stopped = worker;
            worker = undefined;
            void stopped?.terminate();
            finish(job, { status: 'unknown', error: 'cancel' });
          }
        },
        { once: true },
      );
      next();
    });

  return {
    analyse,
    async warmUp() {
      const analysis = await analyse('^[a-z]+x*@$', 'u', 0, new AbortController().signal);
      return analysis.status !== 'unknown';
    },
    async close() {
      const stopped = worker;
      worker = undefined;
      for (const job of waiting.splice(0)) job.resolve({ status: 'unknown', error: 'cancel' });
      if (running) finish(running, { status: 'unknown', error: 'cancel' });
      await stopped?.terminate();
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
