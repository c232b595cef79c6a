/**
 * A throwaway `redis-server` on a free loopback port, for the tests of the shared login counters. When the
 * binary is missing and we are root (CI is), Debian's package is installed first; where that is impossible
 * the caller gets the reason and skips, saying so.
 */
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { startProcess, stopProcess, waitUntilReady } from '../../../support/child-process.ts';
import { ensureDebianPackage } from '../debian-package.ts';
import { freePort } from '../../../support/free-port.ts';

/** A running server. */
export interface RedisServer {
  url: string;
  port: number;
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, as a stalled server or failover. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
  close(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /** Its port (a restart on the same address); default a free one. */
  port?: number;
  /** More `redis-server` arguments (they override the defaults: `--appendonly yes --dir …`, `--maxmemory …`). */
  args?: readonly string[];
}

const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server'];

function findBinary(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

/** Installs Debian's `redis-server` package (one apt-get at a time across test files); answers why it could not. */
async function install(): Promise<string | undefined> {
  const installed = await ensureDebianPackage({
    binary: '/usr/bin/redis-server',
    packageName: 'redis-server',
    // Within the 320 s of the tests' beforeAll, so that a slow install ends in a skip with its reason.
    timeoutMillis: 300_000,
  });
  return installed.ok ? undefined : installed.reason;
}

/** Whether the server at `url` (its password in it, if any) answers PING. */
export async function answersPing(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** The path of `redis-server`, installed first if need be, or why there is none. */
export async function redisServerBinary(): Promise<string | { skipped: string }> {
  const found = findBinary();
  if (found !== undefined) return found;
  const failure = await install();
  return findBinary() ?? { skipped: failure ?? 'redis-server not found after installing it' };
}

/** Starts a server, or answers why it cannot. */
export async function startRedisServer(
  options: RedisServerOptions = {},
): Promise<RedisServer | { skipped: string }> {
  const binary = await redisServerBinary();
  if (typeof binary !== 'string') return binary;
  const port = options.port ?? (await freePort());
  const url = `redis://127.0.0.1:${port}`;
  const server = startProcess({
    name: 'redis-server',
    command: binary,
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      ...(options.args ?? []),
    ],
  });
  try {
    // Redis speaks no HTTP: ready is when it answers PING.
    await waitUntilReady(server, () => answersPing(url), 60_000);
  } catch (error) {
    await stopProcess(server, 0, 'SIGKILL');
    return {
      skipped: error instanceof Error ? error.message : `redis-server did not answer on port ${port}`,
    };
  }
  return {
    url,
    port,
    pause: () => server.child.kill('SIGSTOP'),
    resume: () => server.child.kill('SIGCONT'),
    close: async () => {
      // A frozen server would hold its SIGTERM until thawed.
      server.child.kill('SIGCONT');
      await stopProcess(server, 5_000);
    },
  };
}

/** What {@link useRedisServer} hands a test file. */
export interface RedisFixture {
  /** The server's URL; skips the calling test, saying why, when there is no server. */
  urlOrSkip(context: TestContext): string;
  /**
   * Two replicas sharing the server, started one after the other by `start` with `env` and `REDIS_URL`;
   * skips the calling test as {@link urlOrSkip} does.
   */
  twoReplicas<T>(
    context: TestContext,
    start: (env: Record<string, string>) => Promise<T>,
    env?: Record<string, string>,
  ): Promise<[T, T]>;
}

/** A redis-server for the calling block's tests (installed first if need be), stopped after them. */
export function useRedisServer(): RedisFixture {
  let server: RedisServer | undefined;
  let skipped: string | undefined;
  beforeAll(async () => {
    const started = await startRedisServer();
    if ('skipped' in started) {
      skipped = started.skipped;
      process.stderr.write(`\nSKIPPED Redis tests: ${skipped}\n`);
    } else {
      server = started;
    }
  }, 320_000);
  afterAll(async () => {
    await server?.close();
  });
  const urlOrSkip = (context: TestContext): string => {
    if (server === undefined) return context.skip(`no redis-server: ${skipped ?? ''}`);
    return server.url;
  };
  return {
    urlOrSkip,
    async twoReplicas(context, start, env = {}) {
      const shared = { ...env, REDIS_URL: urlOrSkip(context) };
      return [await start(shared), await start(shared)];
    },
  };
}

/**
 * How many Redis commands the replicas answered from their own memory so far
 * (`gateway_redis_fallbacks_total`, summed): bypassed, timed out or unreachable. Meanwhile each replica
 * counts logins on its own: the documented degradation of a Redis slower than its deadline (a machine loaded
 * far beyond its cores), where a shared budget holds per replica instead. One command past its deadline is
 * enough, without the breaker opening (`gateway_redis_bypasses_total` did not move when a loaded run let
 * 40 guesses through for a budget of 20).
 */
export async function redisFallbacks(...replicas: { baseUrl: string }[]): Promise<number> {
  const counts = await Promise.all(
    replicas.map(async ({ baseUrl }) => {
      const text = await (await fetch(`${baseUrl}/metrics`)).text();
      return Number(/^gateway_redis_fallbacks_total (\d+)/m.exec(text)?.[1] ?? '0');
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
