/**
 * Parse work shared between users: the CPU sibling of the answer budget (`client/answer-budget.ts`).
 * Decoding and `JSON.parse` are synchronous: a multi-MiB answer blocks the event loop for tens of
 * milliseconds, and one user reading its own large pages back to back, well within its byte share, kept
 * everyone else's requests waiting behind its parses. So an answer from {@link UPSTREAM_LARGE_PARSE_BYTES}
 * on waits for a slot: one large parse per user at a time, {@link UPSTREAM_PARSE_SLOTS} in all, users
 * served in turn (the user whose last large parse started longest ago first), and the gateway yields to the event loop before
 * each large parse, so requests of other users that arrived meanwhile run between two of them; a user's
 * slot then rests as long as its parse took, so one user's stream of large answers takes at most half of
 * the event loop (a single parse still blocks it while it runs: only a worker thread would not, and
 * cloning the value back costs about what parsing it does). Small
 * answers never come here: they keep their synchronous path (no extra `await`).
 *
 * A slot is never refused: a waiting answer's bytes are already counted against its user's answer share,
 * which bounds how many can wait.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { UPSTREAM_LARGE_PARSE_BYTES, UPSTREAM_PARSE_SLOTS } from '../../config/defaults.ts';

/** Options of {@link createParseSlots}. */
export interface ParseSlotsOptions {
  /** Large parses at once, all users together. Default {@link UPSTREAM_PARSE_SLOTS}. */
  total?: number;
  /** Large parses at once per user. Default 1. */
  perHolder?: number;
  /**
   * How long a user's slot rests after a large parse, as a multiple of the parse's own time. Default 1:
   * one user's large parses take at most half of the event loop; 0 for none.
   */
  restFactor?: number;
}

/** See {@link createParseSlots}. */
export interface ParseSlots {
  /**
   * Runs `parse` in a slot of `holder` (`undefined`: calls without an identity, logins, share one), after
   * a turn of the event loop.
   */
  run<T>(holder: string | undefined, parse: () => T): Promise<T>;
  /** Large parses running or waiting for their turn now (for tests). */
  inUse(): { running: number; waiting: number };
}

interface Holder {
  running: number;
  waiting: (() => void)[];
  /** When this holder's last parse started (0: none yet, a newcomer goes first). */
  lastStarted: number;
}

const ANONYMOUS = '\u0000anonymous';

/** Whether an answer of `bytes` is large enough to be parsed in a slot. */
export function isLargeAnswer(bytes: number): boolean {
  return bytes >= UPSTREAM_LARGE_PARSE_BYTES;
}

/** Creates the slots, all free. */
export function createParseSlots(options: ParseSlotsOptions = {}): ParseSlots {
  const total = options.total ?? UPSTREAM_PARSE_SLOTS;
  const perHolder = options.perHolder ?? 1;
  const restFactor = options.restFactor ?? 1;
  // A holder has an entry while it has a parse running or waiting: at most one per call in flight.
  const holders = new Map<string, Holder>();
  let running = 0;
  let waiting = 0;
  /** Counts parses started: a holder's `lastStarted` orders the turns. */
  let started = 0;

  /** Starts waiting parses while slots are free, the holder whose last parse started longest ago first. */
  function grant(): void {
    while (running < total) {
      let next: Holder | undefined;
      for (const holder of holders.values()) {
        if (holder.running >= perHolder || holder.waiting.length === 0) continue;
        if (next === undefined || holder.lastStarted < next.lastStarted) next = holder;
      }
      const wake = next?.waiting.shift();
      if (next === undefined || wake === undefined) return;
      next.running += 1;
      next.lastStarted = ++started;
      running += 1;
      waiting -= 1;
      wake();
    }
  }

  async function run<T>(holderKey: string | undefined, parse: () => T): Promise<T> {
    const key = holderKey ?? ANONYMOUS;
    let holder = holders.get(key);
    if (holder === undefined) {
      holder = { running: 0, waiting: [], lastStarted: 0 };
      holders.set(key, holder);
    }
    const mine = holder;
    await new Promise<void>((resolve) => {
      mine.waiting.push(resolve);
      waiting += 1;
      grant();
    });
    let began = 0;
    try {
      // Whatever arrived while this answer was read or waited runs first.
      await nextTurn();
      began = performance.now();
      return parse();
    } finally {
      running -= 1;
      // The user's own slot rests as long as its parse ran: one user's large parses take at most half of
      // the event loop, whatever else is waiting. The answer itself is not held back.
      const rest = began === 0 ? 0 : (performance.now() - began) * restFactor;
      if (rest >= 1) {
        setTimeout(() => {
          free(key, mine);
        }, rest).unref();
        grant();
      } else {
        free(key, mine);
      }
    }
  }

  function free(key: string, mine: Holder): void {
    mine.running -= 1;
    if (mine.running === 0 && mine.waiting.length === 0 && holders.get(key) === mine) holders.delete(key);
    grant();
  }

  return { run, inUse: () => ({ running, waiting }) };
}
