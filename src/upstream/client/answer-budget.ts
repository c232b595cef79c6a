/**
 * A budget of upstream answer bytes held at once, over all calls, with a share per user. An answer may be
 * `maxResponseBytes` (8 MiB) and `UPSTREAM_MAX_CONCURRENT` (64) calls may be read at once: without a total,
 * a few users reading back large stored values together would pass the pod's memory limit. Each call takes
 * a {@link AnswerLease}; the transport adds the bytes as they arrive (the announced length at once when
 * there is one), and the exchange releases the lease once the answer is parsed or dropped, so the decoded
 * text and the parsed value are held under the bytes that made them.
 *
 * Past the budget, the fault is told apart: a user whose own share is taken gets `answer_share` (the
 * caller's: wait for its own reads); when the total is taken the gateway is `overloaded` (never counted
 * against the breaker: the upstream answered). The first {@link SMALL_ANSWER_BYTES} of every answer are
 * counted but never refused for the total, so the ordinary small reads of everyone else go on while a few
 * users' large answers fill it; that lets the total be passed by at most that much per call in flight. The hot path is two additions per chunk, no allocation;
 * a user has an entry only while one of its answers is held, so there are at most as many entries as calls
 * in flight.
 */
import { UPSTREAM_SMALL_ANSWER_BYTES } from '../../config/defaults.ts';
import { UpstreamError } from '../../errors/upstream-error.ts';

/** Options of {@link createAnswerBudget}, in bytes. */
export interface AnswerBudgetOptions {
  /** Answer bytes held at once, all callers together (`UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES`). */
  totalBytes: number;
  /** Of those, the most one user may hold (`UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER`). */
  perUserBytes: number;
  /** Of those, the most all calls without an identity (logins) may hold together: the smallest share. */
  anonymousBytes: number;
}

/** The bytes of one call's answer. */
export interface AnswerLease {
  /** Counts `bytes` more; answers the refusal (nothing counted) when they do not fit. */
  take(bytes: number): UpstreamError | undefined;
  /** Gives back everything this lease took; later calls do nothing. */
  release(): void;
}

/** See {@link createAnswerBudget}. */
export interface AnswerBudget {
  /** A lease for one call of `holder` (`undefined`: a call without an identity, a login). */
  lease(holder: string | undefined, operation: string): AnswerLease;
  /** Bytes held now (for tests and metrics). */
  heldBytes(): number;
  /** Holders with bytes or leases now (for tests). */
  holders(): number;
}

interface Holder {
  bytes: number;
  leases: number;
  share: number;
}

const ANONYMOUS = '\u0000anonymous';

/** Bytes of each answer that the total never refuses (at most 4 MiB over it, with 64 calls in flight). */
export const SMALL_ANSWER_BYTES = UPSTREAM_SMALL_ANSWER_BYTES;

/** Creates an empty budget. */
export function createAnswerBudget(options: AnswerBudgetOptions): AnswerBudget {
  const holders = new Map<string, Holder>();
  let held = 0;

  function lease(holderKey: string | undefined, operation: string): AnswerLease {
    const key = holderKey ?? ANONYMOUS;
    let holder = holders.get(key);
    if (holder === undefined) {
      const share = holderKey === undefined ? options.anonymousBytes : options.perUserBytes;
      holder = { bytes: 0, leases: 0, share };
      holders.set(key, holder);
    }
    holder.leases += 1;
    const mine = holder;
    let taken = 0;
    let released = false;
    return {
      take(bytes) {
        if (released) return undefined;
        if (mine.bytes + bytes > mine.share) {
          return new UpstreamError(
            'answer_share',
            `this user's upstream answers held at once would pass ${mine.share} bytes`,
            { operation },
          );
        }
        if (held + bytes > options.totalBytes && taken + bytes > SMALL_ANSWER_BYTES) {
          return new UpstreamError(
            'overloaded',
            `upstream answers held at once would pass ${options.totalBytes} bytes`,
            { operation },
          );
        }
        mine.bytes += bytes;
        held += bytes;
        taken += bytes;
        return undefined;
      },
      release() {
        if (released) return;
        released = true;
        mine.bytes -= taken;
        held -= taken;
        mine.leases -= 1;
        if (mine.leases === 0 && holders.get(key) === mine) holders.delete(key);
      },
    };
  }

  return { lease, heldBytes: () => held, holders: () => holders.size };
}
