/**
 * What runs inside the pattern checker's worker thread (`redos-analyser.ts`), and the parameters it passes
 * to recheck. The worker is `eval`ed CommonJS: a file of its own would not survive the bundle.
 */
/**
 * The worker's code. recheck's only clock is its deadline check, which reads `performance.now()`: the
 * worker puts a counter in its place, one step per call. Every 1,024 steps the heap is compared with the
 * cap, and when over it, the live heap (after a full collection, so uncollected garbage never counts and
 * the answer does not depend on when V8 chose to collect): past the cap, the clock jumps to the end and
 * recheck stops as on a deadline. The heap may pass the cap by 8 MiB of garbage between checks.
 * `resourceLimits` alone is not enough: V8's `--max-old-space-size` (our start command's 256) overrides a
 * worker's own limit. `--expose-gc` is set from inside the worker (V8's flags are the process's, and the
 * flag only adds `gc` to contexts made afterwards: the worker's `vm` context here).
 */
export const RECHECK_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const v8 = require('node:v8');
v8.setFlagsFromString('--expose-gc');
const collect = require('node:vm').runInNewContext('gc');
const cap = workerData.heapCapBytes;
const slack = 8 * 1024 * 1024;
let steps = 0;
let overHeap = false;
let threshold = cap;
function now() {
  steps += 1;
  if ((steps & 1023) === 0 && !overHeap && v8.getHeapStatistics().used_heap_size > threshold) {
    collect();
    const live = v8.getHeapStatistics().used_heap_size;
    overHeap = live > cap;
    // At most one full collection per 8 MiB allocated, however close to the cap the live heap stays.
    threshold = Math.max(cap, live + slack);
  }
  return overHeap ? 1e12 : steps;
}
Object.defineProperty(globalThis, 'performance', { value: { now }, configurable: true, writable: true });
process.env.RECHECK_SYNC_BACKEND = 'pure';
const { checkSync } = require(workerData.recheckPath);
parentPort.on('message', ({ source, flags, params }) => {
  steps = 0;
  overHeap = false;
  threshold = cap;
  let diagnostics;
  try {
    diagnostics = checkSync(source, flags, params);
  } catch (error) {
    diagnostics = { status: 'unknown', error: { kind: 'unexpected' } };
  }
  const used = { steps, overHeap };
  overHeap = false;
  collect();
  parentPort.postMessage({ diagnostics, used });
});
`;

/**
 * recheck's parameters: steps instead of clocks, and fuzzing sizes that fit the heap cap (with recheck's
 * defaults one pattern took 217 MiB in 3 s).
 */
export function recheckParams(stepBudget: number): Record<string, unknown> {
  return {
    timeout: stepBudget,
    incubationTimeout: null,
    attackTimeout: null,
    seedingTimeout: null,
    recallTimeout: -1,
    maxAttackStringSize: 4_000,
    attackLimit: 4_000_000,
    maxGeneStringSize: 400,
    maxInitialGenerationSize: 100,
    maxGenerationSize: 50,
    maxRecallStringSize: 4_000,
    randomSeed: 0,
  };
}
