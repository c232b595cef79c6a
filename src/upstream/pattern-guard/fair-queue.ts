/**
 * A fair queue for work that all callers share (the pattern guard's analyses): at most `maxConcurrent`
 * tasks run at once, each caller runs at most its share of them and waits in a queue of its own, and a
 * freed slot goes first to a caller that has had nothing served since it arrived (oldest arrival first),
 * then to the returning callers in turn (round robin), never to the oldest task. A caller that arrives
 * while others loop therefore runs before any of them runs again: it waits only for tasks already running
 * and one task of each caller that arrived before it and has not been served yet (had it joined the
 * rotation behind the looping accounts, it would wait for one more task of each of them).
 *
 * The total of waiting tasks is bounded too, but no group of callers can fill it for the others: when it
 * is full, a caller takes a place from the caller holding the most waiting tasks if that one holds at
 * least two more than it, and that caller's newest task is refused instead. Four accounts each filling
 * their own line of four cannot leave a fifth caller without a place.
 *
 * A caller's first waiting task may wait one task's time per round of callers ahead of it (one round per
 * `maxConcurrent` of them), so it is not refused while others take the turns they are owed; the further
 * tasks of a caller wait one task's time only, so a caller looping on many tasks is refused its own
 * surplus rather than holding it.
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
   * {@link FairQueueRefusal} when there is no room, or when its wait runs out before it starts. A task
   * may wait `maxWaitMillis` (the longest a running task takes) for each round of slots before its turn:
   * a caller's first waiting task one round more per `maxConcurrent` callers whose turn comes before its
   * own, since each of them runs one task first; a caller's further tasks wait behind its own and get
   * `maxWaitMillis` only.
   */
  run<T>(caller: string | undefined, task: () => Promise<T>, maxWaitMillis: number): Promise<T>;
  /** Callers with tasks running or waiting (for tests). */
  callers(): number;
}

interface Waiting {
  start: () => void;
  /** Refuses the task before it started (its place was given to a caller holding fewer). */
  refuse: () => void;
}

interface CallerState {
  share: FairShare;
  running: number;
  waiting: Waiting[];
  /** Whether a task of this caller has started since its entry was made (it is then in the rotation). */
  served: boolean;
}

const ANONYMOUS = '\u0000anonymous';

/**
 * How long, and for how many callers, a caller whose entry emptied is still remembered as served: one that
 * sends a task at a time (its entry empties after each) would otherwise come back a newcomer every time and
 * always go first, starving every caller's second task.
 */
const RECENTLY_SERVED_MILLIS = 10_000;
const RECENTLY_SERVED_MAX = 256;

/** Creates an empty queue. */
export function createFairQueue(options: FairQueueOptions): FairQueue {
  // Insertion order is the turn order: newcomers in order of arrival, and a caller served moves to the end.
  const states = new Map<string, CallerState>();
  // Callers served whose entries emptied, oldest first, with when: bounded by RECENTLY_SERVED_MAX.
  const recentlyServed = new Map<string, number>();
  let running = 0;
  let queued = 0;

  /** The caller whose turn it is: the first newcomer that may run, else the first returning caller. */
  function nextCaller(): [string, CallerState] | undefined {
    let returning: [string, CallerState] | undefined;
    for (const entry of states) {
      const state = entry[1];
      if (state.waiting.length === 0 || state.running >= state.share.concurrent) continue;
      if (!state.served) return entry;
      returning ??= entry;
    }
    return returning;
  }

  /** Callers whose turn comes before a first task of `key` (see {@link nextCaller}). */
  function callersAhead(key: string, state: CallerState): number {
    let ahead = 0;
    let before = true;
    for (const [other, entry] of states) {
      if (other === key) {
        before = false;
        continue;
      }
      if (entry.waiting.length === 0) continue;
      // Newcomers go first, in order of arrival; returning callers in turn, after them.
      if (entry.served ? before && state.served : before || state.served) ahead += 1;
    }
    return ahead;
  }

  function dispatch(): void {
    while (running < options.maxConcurrent) {
      const next = nextCaller();
      if (next === undefined) return;
      const [key, state] = next;
      const waiting = state.waiting.shift();
      if (waiting === undefined) return;
      queued -= 1;
      state.served = true;
      states.delete(key);
      states.set(key, state);
      waiting.start();
    }
  }

  /**
   * Makes room in a full queue for a caller holding `held` waiting tasks: refuses the newest task of the
   * caller holding the most, if it holds at least two more. Whether room was made.
   */
  function makeRoomFor(held: number): boolean {
    let largest: [string, CallerState] | undefined;
    for (const entry of states) {
      if (entry[1].waiting.length > (largest?.[1].waiting.length ?? 0)) largest = entry;
    }
    if (largest === undefined || largest[1].waiting.length < held + 2) return false;
    const [key, state] = largest;
    const newest = state.waiting.pop();
    if (newest === undefined) return false;
    queued -= 1;
    release(key, state);
    newest.refuse();
    return true;
  }

  function release(key: string, state: CallerState): void {
    if (state.running !== 0 || state.waiting.length !== 0) return;
    states.delete(key);
    if (!state.served) return;
    recentlyServed.delete(key);
    recentlyServed.set(key, Date.now());
    if (recentlyServed.size > RECENTLY_SERVED_MAX) {
      const [oldest] = recentlyServed.keys();
      if (oldest !== undefined) recentlyServed.delete(oldest);
    }
  }

  /** Whether `key` was served within RECENTLY_SERVED_MILLIS (and forgets it: its entry takes over). */
  function servedRecently(key: string): boolean {
    const at = recentlyServed.get(key);
    if (at === undefined) return false;
    recentlyServed.delete(key);
    return Date.now() - at < RECENTLY_SERVED_MILLIS;
  }

  return {
    run<T>(caller: string | undefined, task: () => Promise<T>, maxWaitMillis: number): Promise<T> {
      const key = caller ?? ANONYMOUS;
      const state = states.get(key) ?? {
        share: caller === undefined ? options.anonymousShare : options.share,
        running: 0,
        waiting: [],
        served: servedRecently(key),
      };
      if (state.waiting.length >= state.share.queued) return Promise.reject(new FairQueueRefusal('full'));
      if (queued >= options.maxQueued && !makeRoomFor(state.waiting.length)) {
        return Promise.reject(new FairQueueRefusal('full'));
      }
      states.set(key, state);
      const rounds =
        state.waiting.length === 0 ? 1 + Math.floor(callersAhead(key, state) / options.maxConcurrent) : 1;
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
          refuse: () => {
            clearTimeout(timer);
            reject(new FairQueueRefusal('full'));
          },
        };
        const timer = setTimeout(() => {
          const at = state.waiting.indexOf(waiting);
          if (at < 0) return;
          state.waiting.splice(at, 1);
          queued -= 1;
          release(key, state);
          reject(new FairQueueRefusal('waited'));
        }, rounds * maxWaitMillis);
        state.waiting.push(waiting);
        queued += 1;
        dispatch();
      });
    },
    callers: () => states.size,
  };
}
