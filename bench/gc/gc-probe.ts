/**
 * The bench's side of `--gc`: how a peer is started with the counting preload (`gc-preload.ts`), and how
 * its totals are read (SIGUSR2, then the file it rewrites).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseGcSnapshot } from './gc-totals.ts';
import type { GcSnapshot } from './gc-totals.ts';

const PRELOAD = fileURLToPath(new URL('gc-preload.ts', import.meta.url));
/** How long a peer may take to answer SIGUSR2 (it is idle or just finished a round when asked). */
const ANSWER_MILLIS = 5_000;

/** Reads a peer's collection totals. */
export interface GcProbe {
  snapshot(): Promise<GcSnapshot>;
}

/** The Node option and environment that make a peer count its collections into `<logDir>/<name>.gc.json`. */
export function gcStartOptions(
  name: string,
  logDir: string,
): { nodeOptions: string[]; env: Record<string, string>; file: string } {
  const file = join(logDir, `${name}.gc.json`);
  return { nodeOptions: [`--import=${PRELOAD}`], env: { BENCH_GC_FILE: file }, file };
}

function readSnapshot(file: string): GcSnapshot | undefined {
  try {
    return parseGcSnapshot(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Waits until `predicate` holds for the file's snapshot (or throws after {@link ANSWER_MILLIS}). */
async function waitFor(
  pid: number,
  file: string,
  predicate: (snapshot: GcSnapshot) => boolean,
): Promise<GcSnapshot> {
  const deadline = Date.now() + ANSWER_MILLIS;
  while (Date.now() < deadline) {
    const current = readSnapshot(file);
    if (current !== undefined && predicate(current)) return current;
    await sleep(5);
  }
  throw new Error(`no GC totals from process ${pid} within ${ANSWER_MILLIS} ms (${file})`);
}

/** The probe of the process `pid` that writes `file`. */
export function gcProbe(pid: number, file: string): GcProbe {
  return {
    async snapshot() {
      // The preload writes sequence 0 once its listener is in place; a signal before would end the process.
      const seen = (await waitFor(pid, file, () => true)).seq;
      process.kill(pid, 'SIGUSR2');
      return waitFor(pid, file, (current) => current.seq > seen);
    },
  };
}
