/**
 * A bulkhead without a promise on its fast path: `tryTake()` takes a free slot synchronously; only a call
 * that finds none waits, in a bounded first-come queue, and only that wait is a promise. A released slot
 * passes straight to the oldest waiter. Same rule as cockatiel's `bulkhead(slots, queue)`, which made a
 * promise and listened to an `AbortSignal` for every call.
 */

/** A queued call: settled when it gets a slot; `cancel` gives up its place. */
export interface SlotWait {
  readonly promise: Promise<void>;
  /** Leaves the queue (a deadline passed); no slot is then held. False when the slot was already given. */
  cancel(): boolean;
}

interface Waiter {
  resolve: () => void;
}

/** See the module comment. */
export class SlotGate {
  #free: number;
  readonly #slots: number;
  readonly #maxQueued: number;
  // A Set keeps arrival order and lets a cancelled waiter leave in O(1).
  readonly #queue = new Set<Waiter>();

  constructor(slots: number, maxQueued: number) {
    this.#slots = slots;
    this.#free = slots;
    this.#maxQueued = maxQueued;
  }

  /** True when no slot is taken and nobody waits. */
  get idle(): boolean {
    return this.#free === this.#slots && this.#queue.size === 0;
  }

  /** Slots taken now (the saturation metrics). */
  get taken(): number {
    return this.#slots - this.#free;
  }

  /** Calls waiting for a slot now. */
  get queued(): number {
    return this.#queue.size;
  }

  /** Takes a free slot if there is one. */
  tryTake(): boolean {
    if (this.#free === 0) return false;
    this.#free -= 1;
    return true;
  }

  /** Queues for a slot; `undefined` when the queue is full (refuse the call). */
  wait(): SlotWait | undefined {
    if (this.#queue.size >= this.#maxQueued) return undefined;
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => {
      waiter = { resolve };
    });
    this.#queue.add(waiter);
    return { promise, cancel: () => this.#queue.delete(waiter) };
  }

  /** Gives a slot back: to the oldest waiter, or to the free ones. */
  release(): void {
    for (const waiter of this.#queue) {
      this.#queue.delete(waiter);
      waiter.resolve();
      return;
    }
    this.#free += 1;
  }
}
