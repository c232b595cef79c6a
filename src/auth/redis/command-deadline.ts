/**
 * A Redis command's deadline (`REDIS_COMMAND_TIMEOUT_MS`) that blames Redis only for Redis's lateness. A
 * deadline kept by a timer alone also fires when this process was too busy to read an answer that had
 * arrived in time: a busy gateway (a long parse, a saturated CPU) then took its Redis for a frozen one, and
 * its breaker bypassed Redis, so the replicas stopped sharing login counters exactly when they were
 * attacked. So at the deadline the answer gets one more turn of the event loop, whose I/O phase reads what
 * the socket holds; only an answer still missing after it is a timeout.
 */

/** A command Redis did not answer within its deadline. */
export class RedisTimeout extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(millis: number) {
    super(`redis did not answer within ${millis} ms`);
    this.name = 'RedisTimeout';
  }
}

/** Settles as `sent` does, or rejects with {@link RedisTimeout} when Redis has not answered by `millis`. */
export function withDeadline<T>(sent: Promise<T>, millis: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    // `setImmediate` runs after the I/O phase that follows the timers: an answer already received is read first.
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) reject(new RedisTimeout(millis));
      });
    }, millis);
    sent.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        // As it came: a limiter's "over the limit" is a plain object, which its caller tells apart.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(error);
      },
    );
  });
}
