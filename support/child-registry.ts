/**
 * The record of the child processes a test run started, so that the run's end (test/support/global-setup.ts)
 * ends them even when the worker that started them crashed, timed out in a hook or was killed: a server
 * left listening takes a port and a core from the next run. Each child is a file named after its pid in the
 * run's directory (`GATEWAY_TEST_CHILDREN`); children started with {@link childGroupOptions} lead a process
 * group of their own, so that ending the group also ends what they started (a supervisor's gateway, an
 * npm script's node). Outside a vitest run (the bench, the soak) the variable is unset and nothing is kept.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable naming the run's directory of records; inherited by the workers. */
export const CHILDREN_DIR_VARIABLE = 'GATEWAY_TEST_CHILDREN';

const RUN_PREFIX = 'gateway-test-children-';

/** The run's directory of records, when a test run keeps them. */
export function childrenDir(): string | undefined {
  const dir = process.env[CHILDREN_DIR_VARIABLE];
  return dir === undefined || dir === '' ? undefined : dir;
}

/**
 * The spawn options that put a child in a process group of its own while a run keeps records (so that its
 * whole tree can be ended); `{}` elsewhere, where a terminal's Ctrl-C should reach it as before.
 */
export function childGroupOptions(): { detached?: boolean } {
  return childrenDir() === undefined ? {} : { detached: true };
}

/** Whether a process (or, with a negative id, a process group) still exists. */
function exists(id: number): boolean {
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Records a started child until it and its process group (if it leads one) are gone; answers the child,
 * so that `recordChild(spawn(...))` reads as one step.
 */
export function recordChild<T extends ChildProcess>(child: T): T {
  const dir = childrenDir();
  const pid = child.pid;
  if (dir === undefined || pid === undefined) return child;
  const record = join(dir, String(pid));
  writeFileSync(record, `${String(pid)}\n`);
  child.once('exit', () => {
    // A group whose leader exited may still hold its children: the record stays for the run's end.
    if (!exists(-pid)) rmSync(record, { force: true });
  });
  return child;
}

/** Sends SIGKILL to a recorded child's group, or to the child alone when it leads none. */
function kill(pid: number): boolean {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
      return true;
    } catch {
      // No such group (a child in its parent's group), or already gone.
    }
  }
  return false;
}

/** The pids of processes whose environment at start names `dir` as the run's directory. */
function markedProcesses(dir: string): number[] {
  const marker = `${CHILDREN_DIR_VARIABLE}=${dir}`;
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found; // not Linux: the records alone
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environment = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (environment.includes(marker)) found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

/** The parent pid of a process, from /proc; undefined when it is gone or /proc is absent. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * Ends, with SIGKILL, every recorded child of the run in `dir` (its whole group) and every process started
 * with the run's variable in its environment (what a test ran with the inherited environment: a browser, a
 * JVM, a script's grandchildren), except this process and its direct children (the run's own workers, which
 * vitest closes itself). Synchronous, so that it can run in an `exit` handler. Answers the pids it signalled.
 */
export function endChildren(dir: string): number[] {
  const ended: number[] = [];
  let records: string[] = [];
  try {
    records = readdirSync(dir);
  } catch {
    // no directory: nothing recorded
  }
  for (const name of records) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 1 && kill(pid)) ended.push(pid);
    rmSync(join(dir, name), { force: true });
  }
  for (const pid of markedProcesses(dir)) {
    if (pid === process.pid || parentOf(pid) === process.pid) continue;
    if (kill(pid)) ended.push(pid);
  }
  return ended;
}

/** Creates this run's directory of records, named after this process. */
export function createChildrenDir(): string {
  const dir = join(tmpdir(), `${RUN_PREFIX}${String(process.pid)}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Ends the children of earlier runs whose own process is gone (a run killed with SIGKILL never reaches its
 * teardown) and removes their directories; runs still going (another terminal's, another user's) are left
 * alone. Answers the pids it signalled.
 */
export function endOrphanedRuns(): number[] {
  const ended: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync(tmpdir());
  } catch {
    return ended;
  }
  for (const entry of entries) {
    if (!entry.startsWith(RUN_PREFIX)) continue;
    const owner = Number(entry.slice(RUN_PREFIX.length));
    if (!Number.isInteger(owner) || owner === process.pid || exists(owner)) continue;
    const dir = join(tmpdir(), entry);
    ended.push(...endChildren(dir));
    rmSync(dir, { recursive: true, force: true });
  }
  return ended;
}
