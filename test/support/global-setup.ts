/**
 * vitest's global setup: gives the run a directory where every child process a test starts is recorded
 * (support/child-registry.ts), and ends them all when the run ends, however it ends: at the global
 * teardown of a finished or failed run, in an `exit` handler when the run is interrupted (vitest exits at
 * once on SIGINT and SIGTERM, without its teardown), and at the next run's start for a run that was killed
 * outright. A crashed worker, a hook that timed out while its server was starting, a test that never
 * reached its `afterAll`: none of them leaves a server listening.
 */
import { rmSync } from 'node:fs';
import {
  CHILDREN_DIR_VARIABLE,
  createChildrenDir,
  endChildren,
  endOrphanedRuns,
} from '../../support/child-registry.ts';

/** Starts the record; answers the teardown that ends what is left. */
export default function setup(): () => void {
  endOrphanedRuns();
  const dir = createChildrenDir();
  // Set before the workers start: they inherit it, and so does every child started with their environment.
  process.env[CHILDREN_DIR_VARIABLE] = dir;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    const pids = endChildren(dir);
    rmSync(dir, { recursive: true, force: true });
    if (pids.length > 0) {
      process.stderr.write(
        `\nended ${String(pids.length)} child process(es) the tests left: ${pids.join(' ')}\n`,
      );
    }
  };
  process.once('exit', end);
  return end;
}
