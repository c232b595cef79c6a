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
import { createHeldBytes } from './held-bytes.ts';

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
  /** Holders with bytes now (for tests). */
  holders(): number;
}

/** Bytes of each answer that the total never refuses (at most 4 MiB over it, with 64 calls in flight). */
export const SMALL_ANSWER_BYTES = UPSTREAM_SMALL_ANSWER_BYTES;

/** Creates an empty budget. */
export function createAnswerBudget(options: AnswerBudgetOptions): AnswerBudget {
  const shareOf = (holder: string | undefined): number =>
    holder === undefined ? options.anonymousBytes : options.perUserBytes;
  const count = createHeldBytes({
    totalBytes: options.totalBytes,
    shareOf,
    totalExemptBytes: SMALL_ANSWER_BYTES,
  });

  function lease(holder: string | undefined, operation: string): AnswerLease {
    const held = count.lease(holder);
    return {
      take(bytes) {
        const refusal = held.take(bytes);
        if (refusal === 'share') {
          return new UpstreamError(
            'answer_share',
            `this user's upstream answers held at once would pass ${shareOf(holder)} bytes`,
            { operation },
          );
        }
        if (refusal === 'total') {
          return new UpstreamError(
            'overloaded',
            `upstream answers held at once would pass ${options.totalBytes} bytes`,
            { operation },
          );
        }
        return undefined;
      },
      release() {
        held.release();
      },
    };
  }

  return { lease, heldBytes: () => count.heldBytes(), holders: () => count.holders() };
}
