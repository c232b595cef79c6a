/**
 * Retrying idempotent reads. Only `timeout` and `unavailable` are retried (a `status: error` answer will not
 * change on a second try), with jittered exponential backoff so that replicas recovering from the same
 * upstream hiccup do not retry in lockstep. Writes never come through here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isUpstreamError } from './errors.ts';

/** Backoff before the first retry; doubled for each further one. */
export const RETRY_BASE_DELAY_MILLIS = 50;

/**
 * Runs `attempt` (with its 1-based number) until it succeeds, fails with a non-retryable error, or
 * `retries` retries are spent.
 */
export async function retryRead<T>(
  retries: number,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (attemptNumber > retries || !isUpstreamError(error) || !error.retryable) throw error;
      await sleep(backoffMillis(attemptNumber));
    }
  }
}

/** "Equal jitter": half the exponential delay fixed, half random. */
function backoffMillis(attemptNumber: number): number {
  const ceiling = RETRY_BASE_DELAY_MILLIS * 2 ** (attemptNumber - 1);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
