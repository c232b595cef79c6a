/** The Redis connection behind the login counters (`REDIS_URL`). */
import type { Redis } from 'ioredis';

/** Where connection trouble is reported; never given the URL (it may hold a password). */
export interface RedisLog {
  warn(object: object, message: string): void;
}

/** The password of a Redis URL, so the logger can mask it wherever it shows up. */
export function redisPassword(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const password = decodeURIComponent(new URL(url).password);
  return password === '' ? undefined : password;
}

/**
 * Connects. Commands fail fast while Redis is down (no offline queue, 1 s per command), and the limiter's
 * in-memory insurance takes over; the start waits at most `connectMillis` for the first connection and then
 * goes on either way (ioredis keeps reconnecting).
 */
export async function connectRedis(url: string, log: RedisLog, connectMillis = 2_000): Promise<Redis> {
  // Loaded only when Redis is configured: the client library alone adds about 6 MiB of resident memory.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectMillis,
    commandTimeout: 1_000,
    lazyConnect: true,
  });
  let warned = false;
  redis.on('error', (error: unknown) => {
    if (warned) return;
    warned = true;
    const code = (error as { code?: unknown }).code;
    log.warn({ code }, 'redis unavailable; login counters kept in this process meanwhile');
  });
  redis.on('ready', () => {
    warned = false;
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    redis.connect().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, connectMillis))),
  ]);
  clearTimeout(timer);
  return redis;
}
