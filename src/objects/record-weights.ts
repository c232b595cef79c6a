/**
 * What a record of each object type weighs in an answer, learnt from the records the upstream sent, for the
 * answer's size estimate before execution (`src/limits/answer-size/answer-size-estimate.ts`): a page of 100 records of a
 * type whose records are 75 KB is about 7.5 MB per selection of `data`, whatever the page size's spelling.
 *
 * Each type keeps a running estimate that rises at once to a heavier record and sinks slowly (an eighth of
 * the way per lighter record), so that a few small records cannot talk the estimate of a heavy type down
 * before one large read. A type never seen weighs {@link UNKNOWN_RECORD_BYTES}; the answer's run-time count
 * (`answer-meter.ts`) bounds what an estimate misses. At most {@link MAX_TYPES} types are kept, least
 * recently learnt first out: object types are the upstream's, and only a type with records is learnt.
 */

/** What a record of a type never read weighs in the estimate (characters of JSON). */
export const UNKNOWN_RECORD_BYTES = 1024;

/** Types whose weight is kept. */
export const MAX_TYPES = 4096;

/** See the module comment. */
export class RecordWeights {
  readonly #weights = new Map<string, number>();
  readonly #maxTypes: number;

  constructor(maxTypes = MAX_TYPES) {
    this.#maxTypes = maxTypes;
  }

  /** Learns that a record of `objectName` weighed `bytes`. */
  learn(objectName: string, bytes: number): void {
    const old = this.#weights.get(objectName);
    const next = old === undefined ? bytes : Math.max(bytes, old + (bytes - old) / 8);
    // Delete first: the Map's order is then the order of last learning, oldest first.
    if (old !== undefined) this.#weights.delete(objectName);
    else if (this.#weights.size >= this.#maxTypes) {
      const oldest = this.#weights.keys().next();
      if (oldest.done !== true) this.#weights.delete(oldest.value);
    }
    this.#weights.set(objectName, next);
  }

  /** What a record of `objectName` weighs, as far as the records read so far tell. */
  weightOf(objectName: string): number {
    return this.#weights.get(objectName) ?? UNKNOWN_RECORD_BYTES;
  }

  /** Types kept (for tests). */
  get size(): number {
    return this.#weights.size;
  }
}
