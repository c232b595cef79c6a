/**
 * The Redis of deploy/kubernetes, run as its manifest runs it (the container's own `sh -c` script, on a free
 * loopback port): it refuses a client without the password, the password is on no command line, and a
 * gateway whose REDIS_URL is the one web.yaml composes from the Secret keeps its login counters there,
 * never printing the password; it keeps an append-only file and evicts nothing; and its probes, run as the
 * kubelet runs them, pass while it answers and fail within their time limit once it is frozen.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { waitUntilReady, type RunningProcess } from '../../support/child-process.ts';
import { freePort } from '../../support/free-port.ts';
import { startGateway } from '../support/gateway-harness.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOGIN, postGraphql } from '../support/post-graphql.ts';
import { answersPing, redisServerBinary } from '../support/servers/redis-server.ts';
import { childGroupOptions, recordChild } from '../../support/child-registry.ts';

const PASSWORD = 'a3f1c9e07b5d4c2a9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d';

/** The containers of the Deployment `name` in `file`. */
function containersOf(file: string, name: string): IContainer[] {
  const documents = parseAllDocuments(readFileSync(join('deploy/kubernetes', file), 'utf8')).map(
    (document) =>
      document.toJS() as {
        kind: string;
        metadata: { name: string };
        spec: { template: { spec: IPodSpec } };
      },
  );
  const found = documents.find((d) => d.kind === 'Deployment' && d.metadata.name === name);
  return found?.spec.template.spec.containers ?? [];
}

const redisContainer = containersOf('redis.yaml', 'gateway-redis')[0];
const gatewayEnv = containersOf('web.yaml', 'web').find((c) => c.name === 'gateway')?.env ?? [];

let redis: (RunningProcess & { url: string }) | { skipped: string } | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-redis-'));

beforeAll(async () => {
  const binary = await redisServerBinary();
  if (typeof binary !== 'string') {
    redis = binary;
    return;
  }
  const port = await freePort();
  const [shell, flag, script] = redisContainer?.command ?? [];
  // The manifest's script, told where to listen here (the container listens on 6379 of its own address).
  const here = (script ?? '').replace(
    'redis-server - ',
    `redis-server - --port ${port} --bind 127.0.0.1 --dir ${dataDir} `,
  );
  const child = recordChild(
    spawn(shell ?? 'sh', [flag ?? '-c', here], {
      ...childGroupOptions(),
      env: { PATH: process.env.PATH ?? '', REDIS_PASSWORD: PASSWORD },
      stdio: ['ignore', 'ignore', 'ignore'],
    }),
  );
  const started = {
    name: 'redis',
    child,
    pid: child.pid ?? 0,
    logFile: undefined,
    exited: undefined,
    exit: new Promise<never>(() => undefined),
    stdout: () => '',
    stderr: () => '',
    outputTail: () => '',
    url: `redis://:${PASSWORD}@127.0.0.1:${port}`,
  };
  await waitUntilReady(started, () => answersPing(started.url), 60_000);
  redis = started;
}, 320_000);

afterAll(() => {
  if (redis !== undefined && 'child' in redis) redis.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const { emulator } = useGatewayPool();

it('should refuse a client without the password and keep the password off every command line', async (context) => {
  if (redis === undefined || 'skipped' in redis) return context.skip(`no redis-server: ${redis?.skipped}`);
  // Redis's own protocol, by hand: a client that sends no AUTH.
  const address = new URL(redis.url);
  const socket = connect(Number(address.port), address.hostname);
  socket.write('PING\r\n');
  const [answer] = (await once(socket, 'data')) as [Buffer];
  socket.destroy();
  expect(answer.toString('utf8')).toMatch(/^-NOAUTH/);
  // `exec`: the script's shell became redis-server, whose arguments hold no password.
  const commandLine = readFileSync(`/proc/${redis.pid}/cmdline`, 'utf8');
  expect(commandLine).toContain('redis-server');
  expect(commandLine).not.toContain(PASSWORD);
});

it("should keep the gateway's login counters in it through the REDIS_URL web.yaml composes", async (context) => {
  if (redis === undefined || 'skipped' in redis) return context.skip(`no redis-server: ${redis?.skipped}`);
  const template = gatewayEnv.find((e) => e.name === 'REDIS_URL')?.value ?? '';
  const address = new URL(redis.url);
  const redisUrl = template
    .replace('$(REDIS_PASSWORD)', PASSWORD)
    .replace('gateway-redis:6379', `${address.hostname}:${address.port}`);
  const lines: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const gw = await startGateway({
    upstreamUrl: emulator.url,
    env: { REDIS_URL: redisUrl, LOG_LEVEL: 'trace' },
    logStream,
  });
  try {
    const refused = await postGraphql(gw.graphqlUrl, LOGIN, { username: 'demo', password: 'wrong' });
    expect(refused.errors?.length).toBeGreaterThan(0);
  } finally {
    await gw.close();
  }

  const client = new Redis(redis.url);
  const keys = await client.keys('*');
  client.disconnect();
  expect(keys.length).toBeGreaterThan(0);
  expect(lines.join('')).not.toContain(PASSWORD);
});

it('should keep an append-only file and never evict a logout or a block (noeviction)', async (context) => {
  if (redis === undefined || 'skipped' in redis) return context.skip(`no redis-server: ${redis?.skipped}`);
  const client = new Redis(redis.url);
  try {
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
  } finally {
    client.disconnect();
  }
});

it('should pass its PING probes while it answers and fail them, within their limits, once frozen', async (context) => {
  if (redis === undefined || 'skipped' in redis) return context.skip(`no redis-server: ${redis?.skipped}`);
  const running = redis;
  const { port } = new URL(running.url);
  const probes = [
    redisContainer?.readinessProbe,
    redisContainer?.livenessProbe,
    redisContainer?.startupProbe,
  ];
  /** Runs a probe's command as the kubelet does (in the container, with its environment), within its limit. */
  const probe = (index: number): Promise<'pass' | 'fail'> => {
    const spec = probes[index];
    const [shell, flag, script] = spec?.exec?.command ?? [];
    const here = (script ?? '').replace('redis-cli -h 127.0.0.1', `redis-cli -h 127.0.0.1 -p ${port}`);
    return new Promise((resolve) => {
      execFile(
        shell ?? 'sh',
        [flag ?? '-c', here],
        {
          env: { PATH: process.env.PATH ?? '', REDIS_PASSWORD: PASSWORD },
          timeout: (spec?.timeoutSeconds ?? 1) * 1000,
        },
        (error) => {
          resolve(error === null ? 'pass' : 'fail');
        },
      );
    });
  };
  for (const spec of probes) {
    expect(spec?.exec?.command?.join(' ')).toContain('redis-cli');
    expect(spec?.exec?.command?.join(' ')).not.toContain(PASSWORD);
  }
  expect(await Promise.all([probe(0), probe(1), probe(2)])).toEqual(['pass', 'pass', 'pass']);
  process.kill(running.pid, 'SIGSTOP');
  try {
    // A frozen Redis still accepts connections (its port probe passed): PING finds it out.
    expect(await Promise.all([probe(0), probe(1), probe(2)])).toEqual(['fail', 'fail', 'fail']);
  } finally {
    process.kill(running.pid, 'SIGCONT');
  }
  expect(await probe(0)).toBe('pass');
});
