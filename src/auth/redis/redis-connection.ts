/** The Redis connection behind the login counters, links and revocations (`REDIS_URL`). */
import type { Redis } from 'ioredis';

/** Where connection changes are reported; never given the URL (it may hold a password). */
export interface RedisLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Options of {@link connectRedis}. */
export interface RedisConnectionOptions {
  /** How long the start waits for the first connection, and each connection attempt may take. Default 2,000. */
  connectMillis?: number;
}

/** The password of a Redis URL, so the logger can mask it wherever it shows up. */
export function redisPassword(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const password = decodeURIComponent(new URL(url).password);
  return password === '' ? undefined : password;
}

/**
 * Connects. Commands fail fast while the connection is down (no offline queue); their deadline while Redis
 * does not answer (a frozen server, a stalled failover) is the guard's (`redis-guard.ts`), which then stops
 * asking it. The start waits at most `connectMillis` for the first connection
 * and then goes on either way (ioredis keeps reconnecting). The connection's own changes are logged once
 * each (lost with its error code, no stack; back), never per command.
 */
export async function connectRedis(
  url: string,
  log: RedisLog,
  options: RedisConnectionOptions = {},
): Promise<Redis> {
  const connectMillis = options.connectMillis ?? 2_000;
  // Loaded only when Redis is configured: the client library alone adds about 6 MiB of resident memory.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectMillis,
    lazyConnect: true,
    // Reconnect soon but not in a loop: at most every 2 s while Redis is away.
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
  });
  let lost = false;
  redis.on('error', (error: unknown) => {
    if (lost) return;
    lost = true;
    const code = (error as { code?: unknown }).code;
    log.info({ code }, 'redis connection lost; reconnecting');
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.info({}, 'redis connection back');
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    redis.connect().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, connectMillis))),
  ]);
  clearTimeout(timer);
  return redis;
}
