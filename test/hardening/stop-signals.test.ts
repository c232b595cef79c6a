/**
 * The way out of a shutdown that hangs (`src/app/shutdown.ts`): a process whose shutdown blocks
 * its event loop for good (as the logger's exit flush once did) still ends on a second signal, through the
 * kernel's default action, and without one when the watchdog thread's deadline passes. As PID 1 (a
 * container without an init), where the kernel applies no default action, a second signal still ends a
 * shutdown that waits.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { childGroupOptions, recordChild } from '../../support/child-registry.ts';

const MODULE = resolve('src/app/shutdown.ts');
const started: ReturnType<typeof spawn>[] = [];
// A process a failed test left blocked would wait on its futex for good.
afterAll(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A process whose shutdown never returns: its main thread waits on a futex nobody wakes. */
function startBlockingProcess(deadlineMillis: number) {
  const source = `
    import { handleStopSignals } from ${JSON.stringify(MODULE)};
    handleStopSignals({
      deadlineMillis: ${deadlineMillis},
      shutdown: async () => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        return 0;
      },
    });
    setInterval(() => {}, 1000);
    process.stdout.write('ready\\n');
  `;
  const child = recordChild(
    spawn(process.execPath, ['--input-type=module', '-e', source], {
      ...childGroupOptions(),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  started.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const ready = once(child.stdout, 'data');
  return { child, exited, ready, stderr: () => stderr };
}

it('should end at once on a second SIGTERM while the shutdown blocks the event loop', async () => {
  const blocked = startBlockingProcess(600_000);
  await blocked.ready;
  blocked.child.kill('SIGTERM');
  await sleep(300);
  expect(blocked.child.exitCode).toBeNull();
  expect(blocked.child.signalCode).toBeNull();
  blocked.child.kill('SIGTERM');
  const [code, signal] = await blocked.exited;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
});

it('should end at once on a SIGINT after a SIGTERM, too', async () => {
  const blocked = startBlockingProcess(600_000);
  await blocked.ready;
  blocked.child.kill('SIGTERM');
  await sleep(300);
  blocked.child.kill('SIGINT');
  const [, signal] = await blocked.exited;
  expect(signal).toBe('SIGINT');
});

it('should be killed by the watchdog once the shutdown outlives its deadline', async () => {
  const blocked = startBlockingProcess(500);
  await blocked.ready;
  blocked.child.kill('SIGTERM');
  const [code, signal] = await blocked.exited;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  expect(blocked.stderr()).toContain('shutdown did not finish within 1000 ms');
});

it('should end on a second SIGTERM as PID 1, where the kernel ignores the default action', async () => {
  // A shutdown that waits for good (connections that never close), in a PID namespace of its own.
  const source = `
    import { handleStopSignals } from ${JSON.stringify(MODULE)};
    handleStopSignals({ deadlineMillis: 600_000, shutdown: () => new Promise(() => {}) });
    setInterval(() => {}, 1000);
    process.stdout.write(String(process.pid) + '\\n');
  `;
  const unshare = recordChild(
    spawn(
      'unshare',
      ['--pid', '--fork', '--kill-child', process.execPath, '--input-type=module', '-e', source],
      {
        ...childGroupOptions(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  started.push(unshare);
  const exited = once(unshare, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const [pidInside] = (await once(unshare.stdout, 'data')) as [Buffer];
  expect(pidInside.toString().trim()).toBe('1');
  // Node's pid as this test sees it: the one child of unshare.
  const outside = Number(
    readFileSync(`/proc/${String(unshare.pid)}/task/${String(unshare.pid)}/children`, 'utf8').trim(),
  );
  process.kill(outside, 'SIGTERM');
  await sleep(300);
  expect(unshare.exitCode).toBeNull();
  process.kill(outside, 'SIGTERM');
  const [code] = await exited;
  // unshare exits as its child did: 128 + 15.
  expect(code).toBe(143);
});
