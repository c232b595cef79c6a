/**
 * A budget of the answers being built at once, in characters of JSON, over all requests, with a share per
 * user and the smallest share for every request without a session together. A request takes its answer's
 * estimate at admission (`answer-size-limit.ts`) and more as its resolvers return values past it
 * (`answer-meter.ts`); everything is given back once the answer is handed to the HTTP layer.
 *
 * The first {@link FREE_ANSWER_BYTES} of each answer are counted by its meter but never taken here: the
 * ordinary small answer (a login, a 50-record page) costs the budget nothing, and a flood of them cannot
 * fill anyone's share; that lets the total be passed by at most that much per request in flight, which the
 * connection caps bound. A user has an entry only while one of its requests holds bytes.
 */
import {
  createHeldBytes,
  type HeldBytesLease,
  type HeldBytesRefusal,
} from '../../upstream/client/held-bytes.ts';

/** Characters of every answer that no share is asked for. */
export const FREE_ANSWER_BYTES = 65_536;

/** Options of {@link createAnswerBytesBudget}. */
export interface AnswerBytesBudgetOptions {
  /** `MAX_INFLIGHT_ANSWER_BYTES`. */
  totalBytes: number;
  /** `MAX_INFLIGHT_ANSWER_BYTES_PER_USER`. */
  perUserBytes: number;
  /** What every request without a session holds together: the smallest share. */
  anonymousBytes: number;
}

/** Why bytes were not taken: the holder's share, or the total. */
export type AnswerBytesRefusal = HeldBytesRefusal;

/** The bytes one request holds. */
export type AnswerBytesLease = HeldBytesLease;

/** See {@link createAnswerBytesBudget}. */
export interface AnswerBytesBudget {
  /** A lease for one request of `holder` (`undefined`: a request without a session). */
  lease(holder: string | undefined): AnswerBytesLease;
  /** Bytes held now (tests, metrics). */
  heldBytes(): number;
  /** Holders with bytes now (tests). */
  holders(): number;
  /** The share of `holder` (its error names it). */
  shareOf(holder: string | undefined): number;
  readonly totalBytes: number;
}

/** Creates an empty budget. */
export function createAnswerBytesBudget(options: AnswerBytesBudgetOptions): AnswerBytesBudget {
  const shareOf = (holder: string | undefined): number =>
    holder === undefined ? options.anonymousBytes : options.perUserBytes;
  const count = createHeldBytes({ totalBytes: options.totalBytes, shareOf });
  return {
    lease(holder) {
      const lease = count.lease(holder);
      return {
        // Nothing or less taken is always answered: a request that takes none costs no entry.
        take: (bytes) => (bytes <= 0 ? undefined : lease.take(bytes)),
        release() {
          lease.release();
        },
      };
    },
    heldBytes: () => count.heldBytes(),
    holders: () => count.holders(),
    shareOf,
    totalBytes: options.totalBytes,
  };
}
