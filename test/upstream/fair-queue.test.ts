/**
 * The pattern checker's fair queue on its own: a caller that sends one task at a time must not come back a
 * newcomer after each and always go first, starving another caller's second task.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFairQueue } from '../../src/upstream/pattern-guard/fair-queue.ts';

const TASK_MILLIS = 40;
const task = () => sleep(TASK_MILLIS);

describe('createFairQueue', () => {
  it("should run a caller's second task while others loop one task at a time", async () => {
    const queue = createFairQueue({
      maxConcurrent: 2,
      maxQueued: 16,
      share: { concurrent: 1, queued: 4 },
      anonymousShare: { concurrent: 1, queued: 1 },
    });
    let looping = true;
    // Four accounts, each sending its next task as soon as its last one ends.
    const loops = ['a', 'b', 'c', 'd'].map(async (caller) => {
      while (looping) await queue.run(caller, task, 10 * TASK_MILLIS).catch(() => undefined);
    });
    await sleep(5 * TASK_MILLIS);
    // The victim sends two at once: the second waits behind its own first, never behind every loop forever.
    const outcomes = await Promise.allSettled([
      queue.run('victim', task, 10 * TASK_MILLIS),
      queue.run('victim', task, 10 * TASK_MILLIS),
    ]);
    looping = false;
    await Promise.all(loops);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(queue.callers()).toBe(0);
  });
});
