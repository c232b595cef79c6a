/**
 * `npm run build`: the bundle builds, holds none of the emulator, and starts in the image's layout (the
 * bundle, schema/, package.json and node_modules; no src/, no emulator/) through `npm start`'s launcher in
 * production, serving /healthz and GraphQL.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommandNodeOptions } from '../../bench/start-command.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
let image: string;
let buildOutput: string;
let gateway: ChildProcess | undefined;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

beforeAll(async () => {
  image = mkdtempSync(join(tmpdir(), 'gateway-image-'));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/build.ts', `--outdir=${join(image, 'dist')}`],
    { cwd: ROOT },
  );
  buildOutput = stdout;
  cpSync(join(ROOT, 'schema'), join(image, 'schema'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(image, 'package.json'));
  mkdirSync(join(image, 'scripts'));
  cpSync(join(ROOT, 'scripts', 'start.js'), join(image, 'scripts', 'start.js'));
  symlinkSync(join(ROOT, 'node_modules'), join(image, 'node_modules'));
}, 60_000);
afterAll(() => {
  gateway?.kill('SIGKILL');
  rmSync(image, { recursive: true, force: true });
});

describe('npm run build', () => {
  it('should bundle src/ into dist/main.js', () => {
    expect(buildOutput).toMatch(/main\.js: \d+ KiB from \d+ source files/);
  });

  it('should leave the emulator out, reached only by main.ts’s dynamic import', () => {
    const bundle = readFileSync(join(image, 'dist', 'main.js'), 'utf8');
    const map = JSON.parse(readFileSync(join(image, 'dist', 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.filter((source) => /(^|\/)emulator\//.test(source))).toEqual([]);
    expect(map.sources.filter((source) => /(^|\/)src\//.test(source)).length).toBeGreaterThan(50);
    expect(bundle).toContain('import("../emulator/index.ts")');
    expect(bundle).not.toMatch(/function startEmulator\b/);
  });

  it('should start in production from the image’s layout and serve /healthz and GraphQL', async () => {
    const port = await freePort();
    const upstream = 'http://127.0.0.1:9';
    gateway = spawn(
      process.execPath,
      [...startCommandNodeOptions(join(ROOT, 'package.json')), 'scripts/start.js'],
      {
        cwd: image,
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'silent',
          SESSION_SECRET: 's'.repeat(48),
          APPLICATION_CODE: 'demo',
          ...{ API_URL: upstream, BASE_URL: upstream, STUDIO_URL: upstream, SERVER_URL: upstream },
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    gateway.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const base = `http://127.0.0.1:${port}`;
    let health: Response | undefined;
    while (health === undefined && gateway.exitCode === null) {
      health = await fetch(`${base}/healthz`).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return undefined;
      });
    }
    expect(stderr).toBe('');
    expect(health?.status).toBe(200);
    expect(await health?.json()).toEqual({ status: 'ok' });
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
    const exited = once(gateway, 'exit');
    gateway.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  }, 60_000);
});
