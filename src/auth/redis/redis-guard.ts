/**
 * Every Redis command of the gateway goes through here, so that a Redis in trouble costs milliseconds, not
 * seconds. A command waits at most `REDIS_COMMAND_TIMEOUT_MS` (`command-deadline.ts`); after
 * `failuresToOpen` commands in a row that timed out or found no connection, a breaker (cockatiel's) opens
 * and every command is refused at once ({@link RedisBypassed}): the callers answer from this replica's
 * memory. No request probes: the guard itself sends a `PING` every `halfOpenAfterMillis`, and the first
 * that answers closes the breaker, so the replica returns to Redis by itself and no caller ever waits for
 * a Redis that may still be frozen.
 *
 * An error Redis answered (a `ReplyError`) is no outage: Redis is there. One of them is told apart: a full
 * Redis (`maxmemory` with `noeviction`) refuses writes with `OOM`, which the guard reports as `full` until
 * a write succeeds again.
 *
 * Each change is logged once: warn when Redis is bypassed, info when it is used again, error when it
 * refuses writes for memory, info when it takes them again. Never a line, nor a stack, per command.
 */
import { circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import type { Redis } from 'ioredis';
import { withDeadline } from './command-deadline.ts';
import type { RedisLog } from './redis-connection.ts';

/** What the guard reports: `up` (used and answering), `bypassed` (breaker open), `full` (refuses writes). */
export type RedisStatus = 'up' | 'bypassed' | 'full';

/** Whether a command may add to Redis's memory (`write`: only those meet `OOM`). */
export type RedisCommandKind = 'read' | 'write';

/** Thrown instead of sending a command while the breaker is open. */
export class RedisBypassed extends Error {
  constructor() {
    super('redis bypassed: its breaker is open');
    this.name = 'RedisBypassed';
  }
}

/** Options of {@link createRedisGuard}. */
export interface RedisGuardOptions {
  redis: Redis;
  log: RedisLog;
  /** How long one call may wait for Redis (`REDIS_COMMAND_TIMEOUT_MS`). */
  commandTimeoutMillis: number;
  /** Outages in a row (timeouts, no connection) that open the breaker. Default 3. */
  failuresToOpen?: number;
  /** How long after opening (and after each failed probe) the guard pings Redis. Default 1,000. */
  halfOpenAfterMillis?: number;
}

/** See {@link createRedisGuard}. */
export interface RedisGuard {
  /** The client, to build what sends commands (a limiter); send them only through {@link RedisGuard.run}. */
  readonly client: Redis;
  /** Sends `command` unless the breaker is open; an outage counts towards opening it. */
  run<T>(command: (redis: Redis) => Promise<T>, kind: RedisCommandKind): Promise<T>;
  status(): RedisStatus;
  /** Whether the gateway uses Redis and it answers (`gateway_redis_up`). */
  isUp(): boolean;
  /** How many times Redis was bypassed since start (`gateway_redis_bypasses_total`). */
  bypasses(): number;
  /**
   * Commands Redis did not serve since start, each answered from this replica's memory by its caller
   * (`gateway_redis_fallbacks_total`): refused while bypassed, timed out, or without a connection. One
   * command past its deadline falls back without opening the breaker, so shares are counted apart
   * meanwhile even when {@link RedisGuard.bypasses} did not move.
   */
  fallbacks(): number;
  /** Called whenever Redis may be back: a new connection is ready, or the breaker closed. */
  onReturn(listener: () => void): void;
  /** Stops the probes and closes the connection (politely, within a deadline: Redis may be frozen). */
  close(): Promise<void>;
}

/** True for what says Redis was not reached in time; an answer of Redis (`ReplyError`) is not. */
function isOutage(error: unknown): boolean {
  return error instanceof Error && error.name !== 'ReplyError';
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError' && error.message.startsWith('OOM');
}

/** The short reason of an outage, for the state-change line: an error code or the error's message. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}

/** Creates the guard of `redis`. */
export function createRedisGuard(options: RedisGuardOptions): RedisGuard {
  const { redis, log } = options;
  const halfOpenAfter = options.halfOpenAfterMillis ?? 1_000;
  const timeoutMillis = options.commandTimeoutMillis;
  const breaker = circuitBreaker(handleWhen(isOutage), {
    halfOpenAfter,
    breaker: new ConsecutiveBreaker(options.failuresToOpen ?? 3),
  });
  const listeners: (() => void)[] = [];
  const notifyReturn = () => {
    for (const listener of listeners) listener();
  };
  let bypassed = false;
  let bypasses = 0;
  let fallbacks = 0;
  let full = false;
  let probeTimer: NodeJS.Timeout | undefined;
  let closed = false;

  // A probe still unanswered when the next is due: the connection is stuck (a frozen server, a black
  // hole). It is dropped for a new one, whose commands fail at once until Redis answers its ready check,
  // so probes never pile up behind it.
  let unanswered: Promise<unknown> | undefined;
  const probe = () => {
    probeTimer = undefined;
    if (unanswered !== undefined) redis.disconnect(true);
    const sent = redis.ping();
    unanswered = sent;
    const settle = () => {
      if (unanswered === sent) unanswered = undefined;
    };
    sent.then(settle, settle);
    breaker.execute(() => withDeadline(sent, timeoutMillis)).catch(() => undefined);
  };
  breaker.onBreak((reason) => {
    // Each failed probe opens it again: the next probe is due `halfOpenAfter` from now.
    if (!closed) probeTimer = setTimeout(probe, halfOpenAfter + 1).unref();
    if (bypassed) return;
    bypassed = true;
    bypasses += 1;
    const cause = 'error' in reason ? reasonOf(reason.error) : 'failed';
    log.warn(
      { cause, probeEveryMillis: halfOpenAfter },
      'redis bypassed after commands failed in a row; this replica answers from its own memory until a probe answers',
    );
  });
  breaker.onReset(() => {
    bypassed = false;
    log.info({}, 'redis answers again; used again');
    notifyReturn();
  });
  redis.on('ready', notifyReturn);

  return {
    client: redis,
    bypasses: () => bypasses,
    fallbacks: () => fallbacks,
    async run(command, kind) {
      // Half-open too: only the guard's probe may find out whether Redis is back.
      if (breaker.state !== CircuitState.Closed) {
        fallbacks += 1;
        throw new RedisBypassed();
      }
      try {
        const answer = await breaker.execute(() => withDeadline(command(redis), timeoutMillis));
        if (kind === 'write' && full) {
          full = false;
          log.info({}, 'redis takes writes again');
        }
        return answer;
      } catch (error) {
        if (isOutage(error)) fallbacks += 1;
        if (isOutOfMemory(error) && !full) {
          full = true;
          log.error(
            {},
            'redis refuses writes: out of memory (maxmemory, noeviction); logouts are kept in this replica and retried',
          );
        }
        throw error;
      }
    },
    status: () => (bypassed ? 'bypassed' : full ? 'full' : 'up'),
    isUp: () => !bypassed && redis.status === 'ready',
    onReturn(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      clearTimeout(probeTimer);
      redis.off('ready', notifyReturn);
      await withDeadline(redis.quit(), timeoutMillis).catch(() => undefined);
      redis.disconnect();
    },
  };
}
