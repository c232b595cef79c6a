/**
 * SIGTERM always ends the gateway, even when whoever sent it has closed the pipes of its stdout and stderr:
 * a supervisor (`test/support/signal-and-leave.ts`) starts the command, logs in once, signals
 * the process group and exits. The gateway used to hang in about half the tries, for good: the logger's
 * exit flush retried EPIPE forever, its main thread on a futex, deaf to a second SIGTERM. Ten tries, the
 * moment of the signal shifted across the logger's one-second flush period, every other try with the pipes
 * closed before the signal; each process must be gone within SHUTDOWN_GRACE_MS and a minute of slack (the
 * hang it guards against was for good; a loaded machine may take seconds to deliver the watchdog's timer).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '../../src/config/defaults.ts';
import { CHILDREN_DIR_VARIABLE, recordChild } from '../../support/child-registry.ts';
import { freePort } from '../../support/free-port.ts';

const TRIES = 10;
const GONE_WITHIN_MS = SETTING_DEFAULTS.SHUTDOWN_GRACE_MS + 60_000;

/** Runs the supervisor once; answers the pid of the gateway it signalled. */
function signalAndLeave(port: number, waitMillis: number, closeFirst: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const supervisor = execFile(
      process.execPath,
      ['test/support/signal-and-leave.ts', String(port)],
      {
        env: {
          PATH: process.env.PATH ?? '',
          WAIT_MS: String(waitMillis),
          CLOSE_FIRST: String(closeFirst),
          // The supervisor records the gateway it starts in a group of its own, for the run's end.
          [CHILDREN_DIR_VARIABLE]: process.env[CHILDREN_DIR_VARIABLE] ?? '',
        },
        timeout: 300_000,
      },
      (error, stdout) => {
        if (error !== null) reject(new Error(`the supervisor failed: ${error.message}`));
        else resolve(Number(stdout.trim()));
      },
    );
    recordChild(supervisor);
  });
}

/** Whether `pid` still runs (a zombie waiting for init to reap it has exited). */
function running(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .charAt(0);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

it(`should end the gateway after SIGTERM in ${TRIES} tries out of ${TRIES}, its supervisor gone`, async () => {
  const stuck: number[] = [];
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const pid = await signalAndLeave(await freePort(), attempt * 150, attempt % 2 === 0);
    expect(pid).toBeGreaterThan(0);
    const deadline = Date.now() + GONE_WITHIN_MS;
    while (running(pid) && Date.now() < deadline) await sleep(50);
    if (running(pid)) {
      stuck.push(pid);
      process.kill(pid, 'SIGKILL');
    }
  }
  expect(stuck).toEqual([]);
}, 600_000);
