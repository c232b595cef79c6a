/**
 * Bytes held at once under leases, in all and per holder: the counting under both budgets of answers in
 * memory, the answers being built (`answer-size/answer-bytes-budget.ts`) and the upstream answers being read
 * (`upstream/client/answer-budget.ts`). They differ in what a refusal says and in what the total lets pass,
 * not in how bytes are taken and given back, so that is written once here.
 *
 * A holder has an entry only while a lease of it holds bytes (made by its first bytes taken, dropped when
 * its last lease is released), so there are at most as many entries as leases in flight.
 */

/** Why bytes were not taken: the holder's share, or the total. */
export type HeldBytesRefusal = 'share' | 'total';

/** The bytes one lease holds. */
export interface HeldBytesLease {
  /** Takes `bytes` more; the refusal (nothing taken) when they do not fit. */
  take(bytes: number): HeldBytesRefusal | undefined;
  /** Gives back everything this lease took; later calls do nothing. */
  release(): void;
}

/** Options of {@link createHeldBytes}. */
export interface HeldBytesOptions {
  /** Bytes held at once, all holders together. */
  totalBytes: number;
  /** The most `holder` may hold (`undefined`: every lease without a holder, together). */
  shareOf(holder: string | undefined): number;
  /**
   * The first bytes of every lease that the total never refuses (its share still does), so that small
   * answers go on while a few large ones fill the total; the total is passed by at most that much per lease.
   */
  totalExemptBytes?: number;
}

/** See the module comment. */
export interface HeldBytes {
  lease(holder: string | undefined): HeldBytesLease;
  /** Bytes held now. */
  heldBytes(): number;
  /** Holders with bytes now. */
  holders(): number;
}

interface Holder {
  bytes: number;
  leases: number;
}

/** The key of the leases without a holder: no holder's key can be it. */
const ANONYMOUS = '\u0000anonymous';

/** Creates an empty count. */
export function createHeldBytes(options: HeldBytesOptions): HeldBytes {
  const holders = new Map<string, Holder>();
  const exempt = options.totalExemptBytes ?? 0;
  let held = 0;

  function lease(holderKey: string | undefined): HeldBytesLease {
    const key = holderKey ?? ANONYMOUS;
    const share = options.shareOf(holderKey);
    let taken = 0;
    let released = false;
    let mine: Holder | undefined;
    return {
      take(bytes) {
        if (released) return undefined;
        // The holder's entry is made by the first bytes taken: a lease that takes none costs no entry.
        const holder = mine ?? holders.get(key) ?? { bytes: 0, leases: 0 };
        if (holder.bytes + bytes > share) return 'share';
        if (held + bytes > options.totalBytes && taken + bytes > exempt) return 'total';
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

  return { lease, heldBytes: () => held, holders: () => holders.size };
}
