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
export type AnswerBytesRefusal = 'share' | 'total';

/** The bytes one request holds. */
export interface AnswerBytesLease {
  /** Takes `bytes` more; the refusal (nothing taken) when they do not fit. */
  take(bytes: number): AnswerBytesRefusal | undefined;
  /** Gives back everything this lease took; later calls do nothing. */
  release(): void;
}

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

interface Holder {
  bytes: number;
  leases: number;
}

const ANONYMOUS = '\u0000anonymous';

/** Creates an empty budget. */
export function createAnswerBytesBudget(options: AnswerBytesBudgetOptions): AnswerBytesBudget {
  const holders = new Map<string, Holder>();
  let held = 0;
  const shareOf = (holder: string | undefined): number =>
    holder === undefined ? options.anonymousBytes : options.perUserBytes;

  function lease(holderKey: string | undefined): AnswerBytesLease {
    const key = holderKey ?? ANONYMOUS;
    const share = shareOf(holderKey);
    let taken = 0;
    let released = false;
    let mine: Holder | undefined;
    return {
      take(bytes) {
        if (released || bytes <= 0) return undefined;
        // The holder's entry is made by the first bytes taken: a request that takes none costs no entry.
        const holder = mine ?? holders.get(key) ?? { bytes: 0, leases: 0 };
        if (holder.bytes + bytes > share) return 'share';
        if (held + bytes > options.totalBytes) return 'total';
        if (mine === undefined) {
          mine = holder;
          if (holder.leases === 0) holders.set(key, holder);
          holder.leases += 1;
        }
        holder.bytes += bytes;
        held += bytes;
        taken += bytes;
        return undefined;
      },
      release() {
        if (released) return;
        released = true;
        if (mine === undefined) return;
        mine.bytes -= taken;
        held -= taken;
        mine.leases -= 1;
        if (mine.leases === 0 && holders.get(key) === mine) holders.delete(key);
      },
    };
  }

  return {
    lease,
    heldBytes: () => held,
    holders: () => holders.size,
    shareOf,
    totalBytes: options.totalBytes,
  };
}
