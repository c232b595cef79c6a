/**
 * A throwaway `redis-server` on a free loopback port, for the tests of the shared login counters. When the
 * binary is missing and we are root (CI is), Debian's package is installed first; where that is impossible
 * the caller gets the reason and skips, saying so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { ensureDebianPackage } from '../debian-package.ts';

/** A running server. */
export interface RedisServer {
  url: string;
  close(): Promise<void>;
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

async function answersPing(url: string): Promise<boolean> {
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

/** Starts a server, or answers why it cannot. */
export async function startRedisServer(): Promise<RedisServer | { skipped: string }> {
  let binary = findBinary();
  if (binary === undefined) {
    const failure = await install();
    binary = findBinary();
    if (binary === undefined) return { skipped: failure ?? 'redis-server not found after installing it' };
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && child.exitCode === null; i++) {
    if (await answersPing(url)) {
      return {
        url,
        async close() {
          child.kill('SIGTERM');
          await Promise.race([exited, sleep(5_000)]);
        },
      };
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  return { skipped: `redis-server did not answer on port ${port}` };
}
