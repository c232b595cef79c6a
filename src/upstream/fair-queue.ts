/**
 * A fair queue for work that all callers share (the pattern guard's analyses): at most `maxConcurrent`
 * tasks run at once, each caller runs at most its share of them and waits in a queue of its own, and a
 * freed slot goes to the next caller in turn (round robin), not to the oldest task. So one account
 * looping on new patterns queues behind itself: another account's task runs as soon as a slot is free,
 * after at most one task of each other caller, however long the looping account's queue.
 *
 * Every structure is bounded: a caller has an entry only while it has tasks running or waiting, so there
 * are at most `maxConcurrent + maxQueued` entries.
 */

/** How much of the queue one kind of caller may hold. */
export interface FairShare {
  /** Tasks of one caller running at once. */
  concurrent: number;
  /** Tasks of one caller waiting; more are refused. */
  queued: number;
}

/** Options of {@link createFairQueue}. */
export interface FairQueueOptions {
  /** Tasks running at once, all callers together. */
  maxConcurrent: number;
  /** Tasks waiting, all callers together; more are refused. */
  maxQueued: number;
  /** The share of a caller with an identity (a session's user). */
  share: FairShare;
  /** The share of anonymous callers, all together (the smallest). */
  anonymousShare: FairShare;
}

/** Why a task did not run. */
export class FairQueueRefusal extends Error {
  override readonly name = 'FairQueueRefusal';
  /** `full`: no room to wait; `waited`: the wait ran out before a slot was free. */
  readonly why: 'full' | 'waited';

  constructor(why: 'full' | 'waited') {
    super(why === 'full' ? 'the queue is full' : 'the wait ran out');
    this.why = why;
  }
}

/** See {@link createFairQueue}. */
export interface FairQueue {
  /**
   * Runs `task` for `caller` (`undefined`: anonymous) when its turn comes; refuses with
   * {@link FairQueueRefusal} when there is no room, or when `maxWaitMillis` passes before it starts.
   */
  run<T>(caller: string | undefined, task: () => Promise<T>, maxWaitMillis: number): Promise<T>;
  /** Callers with tasks running or waiting (for tests). */
  callers(): number;
}

interface Waiting {
  start: () => void;
}

interface CallerState {
  share: FairShare;
  running: number;
  waiting: Waiting[];
}

const ANONYMOUS = '\u0000anonymous';

/** Creates an empty queue. */
export function createFairQueue(options: FairQueueOptions): FairQueue {
  // Insertion order is the turn order: a caller served moves to the end.
  const states = new Map<string, CallerState>();
  let running = 0;
  let queued = 0;

  function dispatch(): void {
    while (running < options.maxConcurrent) {
      let next: [string, CallerState] | undefined;
      for (const entry of states) {
        if (entry[1].waiting.length > 0 && entry[1].running < entry[1].share.concurrent) {
          next = entry;
          break;
        }
      }
      if (next === undefined) return;
      const [key, state] = next;
      const waiting = state.waiting.shift();
      if (waiting === undefined) return;
      queued -= 1;
      states.delete(key);
      states.set(key, state);
      waiting.start();
    }
  }

  function release(key: string, state: CallerState): void {
    if (state.running === 0 && state.waiting.length === 0) states.delete(key);
  }

  return {
    run<T>(caller: string | undefined, task: () => Promise<T>, maxWaitMillis: number): Promise<T> {
      const key = caller ?? ANONYMOUS;
      const state = states.get(key) ?? {
        share: caller === undefined ? options.anonymousShare : options.share,
        running: 0,
        waiting: [],
      };
      if (state.waiting.length >= state.share.queued || queued >= options.maxQueued) {
        return Promise.reject(new FairQueueRefusal('full'));
      }
      states.set(key, state);
      return new Promise<T>((resolve, reject) => {
        const waiting: Waiting = {
          start: () => {
            clearTimeout(timer);
            running += 1;
            state.running += 1;
            task()
              .then(resolve, reject)
              .finally(() => {
                running -= 1;
                state.running -= 1;
                release(key, state);
                dispatch();
              });
          },
        };
        const timer = setTimeout(() => {
          const at = state.waiting.indexOf(waiting);
          if (at < 0) return;
          state.waiting.splice(at, 1);
          queued -= 1;
          release(key, state);
          reject(new FairQueueRefusal('waited'));
        }, maxWaitMillis);
        state.waiting.push(waiting);
        queued += 1;
        dispatch();
      });
    },
    callers: () => states.size,
  };
}
