/**
 * How many login-limiter counters this process holds, without keeping their keys: the limiter's store
 * (rate-limiter-flexible) forgets each key when it expires, but says nothing about how many it holds, so
 * the ledger records only when each counter it was told about ends. Counters of one kind all live equally
 * long, so each lifetime's ends arrive in order: one queue of end times per lifetime, expired ones dropped
 * from the front. A counter deleted early (a successful login) is released: the earliest end of its
 * lifetime is dropped, so every counter still alive keeps an end no earlier than its own and the count is
 * never below what the store holds, which is what a bound needs.
 */

/** See {@link createCounterLedger}. */
export interface CounterLedger {
  /** Records one counter that lives at most `lifetimeMillis` from now. */
  add(lifetimeMillis: number): void;
  /** Forgets one counter of `lifetimeMillis` deleted before its end (the one ending first). */
  release(lifetimeMillis: number): void;
  /** Counters recorded that may still be alive. */
  size(): number;
}

interface EndQueue {
  ends: number[];
  head: number;
}

/** Creates an empty ledger; `now` is injectable for tests. */
export function createCounterLedger(now: () => number = Date.now): CounterLedger {
  const queues = new Map<number, EndQueue>();
  let total = 0;

  function prune(): void {
    const at = now();
    for (const queue of queues.values()) {
      while (queue.head < queue.ends.length && (queue.ends[queue.head] ?? Infinity) <= at) {
        queue.head += 1;
        total -= 1;
      }
      // Drop the consumed front once it is most of the array, so memory follows the live count.
      if (queue.head > 1024 && queue.head * 2 > queue.ends.length) {
        queue.ends = queue.ends.slice(queue.head);
        queue.head = 0;
      }
    }
  }

  return {
    add(lifetimeMillis) {
      let queue = queues.get(lifetimeMillis);
      if (queue === undefined) {
        queue = { ends: [], head: 0 };
        queues.set(lifetimeMillis, queue);
      }
      queue.ends.push(now() + lifetimeMillis);
      total += 1;
    },
    release(lifetimeMillis) {
      prune();
      const queue = queues.get(lifetimeMillis);
      if (queue === undefined || queue.head >= queue.ends.length) return;
      queue.head += 1;
      total -= 1;
    },
    size() {
      prune();
      return total;
    },
  };
}
