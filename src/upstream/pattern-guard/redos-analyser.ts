/**
 * The ReDoS checker behind the pattern guard: `recheck`, which finds both exponential and polynomial
 * backtracking (with an attack string) by automata theory, falling back to fuzzing for patterns too large
 * for its automaton. It never runs on the gateway's event loop: `check` talks JSON-RPC to recheck's native
 * agent (a child process, from the `recheck-linux-x64` package on Linux), else to its jar under `java`, else
 * to a worker thread; each analysis stops at `timeoutMillis` and can be cancelled.
 */
import type { check as Check } from 'recheck';

// recheck's module is a 2.9 MB Scala.js bundle: loaded when the first pattern needs it, not at start-up,
// where it cost every replica about 15 MiB of RSS and a slower start whether or not anyone sends a regex.
let loaded: Promise<typeof Check> | undefined;
function loadCheck(): Promise<typeof Check> {
  loaded ??= import('recheck').then((module) => module.check);
  return loaded;
}

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
  /** The checker gave up (`timeout`, `cancel`) or could not read the source; the guard fails closed. */
  | { status: 'unknown'; error: string };

/**
 * Analyses `source` (ECMAScript syntax) with `flags`; must honour `signal` and settle within roughly
 * `timeoutMillis`. The guard takes one as an option so that tests can stand in a slow or failing one.
 */
export type Analyser = (
  source: string,
  flags: string,
  timeoutMillis: number,
  signal: AbortSignal,
) => Promise<Analysis>;

/** The default {@link Analyser}: recheck with its own time limit, cancelled on `signal`. */
export const recheckAnalyser: Analyser = async (source, flags, timeoutMillis, signal) => {
  const check = await loadCheck();
  const diagnostics = await check(source, flags, { timeout: timeoutMillis, signal });
  switch (diagnostics.status) {
    case 'safe':
      return { status: 'safe' };
    case 'vulnerable': {
      const { complexity, hotspot, attack } = diagnostics;
      return complexity.type === 'exponential'
        ? { status: 'vulnerable', complexity: 'exponential', hotspots: hotspot, attack: attack.string }
        : {
            status: 'vulnerable',
            complexity: 'polynomial',
            degree: complexity.degree,
            hotspots: hotspot,
            attack: attack.string,
          };
    }
    case 'unknown':
      return { status: 'unknown', error: diagnostics.error.kind };
  }
};
