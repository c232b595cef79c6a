/**
 * `npm run build`: the bundle builds, holds none of the emulator, and starts in the image's layout (the
 * bundle, schema/, package.json and node_modules; no src/, no emulator/) through `npm start`'s launcher in
 * production, serving /healthz and GraphQL.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommandNodeOptions } from '../../support/start-command.ts';
import { stopProcess, type RunningProcess } from '../../support/child-process.ts';
import { buildImageLayout } from '../support/build-image-layout.ts';
import { startImageGateway } from '../support/start-image-gateway.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
let image: string;
let buildOutput: string;
let gateway: RunningProcess | undefined;

beforeAll(async () => {
  ({ image, buildOutput } = await buildImageLayout('gateway-image-'));
  mkdirSync(join(image, 'scripts'));
  cpSync(join(ROOT, 'scripts', 'start.js'), join(image, 'scripts', 'start.js'));
});
afterAll(async () => {
  if (gateway !== undefined) await stopProcess(gateway, 0, 'SIGKILL');
  rmSync(image, { recursive: true, force: true });
});

describe('npm run build', () => {
  it('should bundle src/ into dist/main.js', () => {
    expect(buildOutput).toMatch(/main\.js: \d+ KiB from \d+ source files/);
  });

  it('should leave the emulator out, reached only by main.ts’s dynamic import', () => {
    // main.js and its chunks (each dynamic import of src/ is one: `scripts/build.ts`).
    const files = readdirSync(join(image, 'dist'));
    const bundle = files
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(image, 'dist', file), 'utf8'))
      .join('\n');
    const sources = files
      .filter((file) => file.endsWith('.js.map'))
      .flatMap(
        (file) =>
          (JSON.parse(readFileSync(join(image, 'dist', file), 'utf8')) as { sources: string[] }).sources,
      );
    expect(sources.filter((source) => /(^|\/)emulator\//.test(source))).toEqual([]);
    expect(sources.filter((source) => /(^|\/)src\//.test(source)).length).toBeGreaterThan(50);
    expect(bundle).toContain('import("../emulator/index.ts")');
    expect(bundle).not.toMatch(/function startEmulator\b/);
  });

  it('should start in production from the image’s layout and serve /healthz and GraphQL', async () => {
    const started = await startImageGateway(
      image,
      [...startCommandNodeOptions(join(ROOT, 'package.json')), 'scripts/start.js'],
      {},
      120_000,
    );
    gateway = started.gateway;
    const { base } = started;
    expect(gateway.stderr()).toBe('');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
    expect((await stopProcess(gateway, 30_000)).code).toBe(0);
  });
});
