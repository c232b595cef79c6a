/**
 * The image as built: the repository's Dockerfile built with podman (`test/support/container-image.ts` says
 * how the base image is had without a registry), then run as a team runs it, in front of the emulator on this
 * machine's loopback: it serves a front-end's login and read, runs as uid 1000 under tini with its files
 * read-only to it, reports the commit it was built from, keeps its HEALTHCHECK, leaves the emulator out, and
 * stops on SIGTERM with exit 0.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it, type TestContext } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { freePort } from '../../support/free-port.ts';
import { bearerLogin } from '../support/bearer-login.ts';
import {
  buildImage,
  ensureBaseImage,
  ensurePodman,
  podman,
  RUN_OPTIONS,
} from '../support/container-image.ts';
import { LOAN_TYPES, postGraphql } from '../support/post-graphql.ts';

const TAG = 'localhost/jsonp-graphql-gateway:image-test';
const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const NAME = `gateway-image-test-${String(process.pid)}`;

let skipped: string | undefined;
let emulator: RunningEmulator | undefined;
let baseUrl = '';

beforeAll(async () => {
  const ready = await ensurePodman();
  if (!ready.ok) {
    skipped = ready.reason;
    return;
  }
  await ensureBaseImage();
  await buildImage(TAG, COMMIT);
  emulator = await startEmulator({ port: 0 });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${String(port)}`;
  // The host's network: the container reaches the emulator on this machine's loopback, as a sidecar would.
  await podman([
    'run',
    '-d',
    ...RUN_OPTIONS,
    '--network',
    'host',
    '--name',
    NAME,
    ...['-e', `PORT=${String(port)}`, '-e', 'HOST=127.0.0.1'],
    ...[
      '-e',
      `SESSION_SECRET=${'s'.repeat(40)}`,
      '-e',
      'APPLICATION_CODE=demo',
      '-e',
      'ORGANIZATION_CODE=acme',
    ],
    ...['API_URL', 'BASE_URL', 'STUDIO_URL', 'SERVER_URL'].flatMap((name) => [
      '-e',
      `${name}=${emulator?.url ?? ''}`,
    ]),
    TAG,
  ]);
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.status !== 200) {
    if (Date.now() > deadline)
      throw new Error(`the image did not serve /healthz: ${await podman(['logs', NAME])}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 1_800_000);

afterAll(async () => {
  if (skipped === undefined) await podman(['rm', '-f', NAME]).catch(() => '');
  await emulator?.close();
});

function need(context: TestContext): void {
  if (skipped !== undefined) context.skip(`no podman: ${skipped}`);
}

it('should serve a login and a read from the image as built', async (context) => {
  need(context);
  const session = await bearerLogin(`${baseUrl}/graphql`, { username: 'demo', password: 'demo-password' });
  const answer = await postGraphql(`${baseUrl}/graphql`, LOAN_TYPES, {}, session);
  expect(answer.errors).toBeUndefined();
  expect(answer.data).toBeDefined();
});

it('should run as uid 1000 under tini, its code read-only to it', async (context) => {
  need(context);
  const top = await podman(['top', NAME, 'user', 'args']);
  expect(top).toMatch(/\/usr\/bin\/tini -- node/);
  expect(
    top
      .split('\n')
      .slice(1)
      .filter((line) => line.trim() !== '')
      .every((line) => !line.startsWith('root')),
  ).toBe(true);
  const probe = await podman([
    'exec',
    NAME,
    'node',
    '-e',
    "const fs = require('node:fs'); let w = true; try { fs.accessSync('/app/dist/main.js', fs.constants.W_OK) } catch { w = false } console.log(process.getuid(), w)",
  ]);
  expect(probe.trim()).toBe('1000 false');
});

it('should say the commit it was built from, and keep its health check', async (context) => {
  need(context);
  const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
  expect(metrics).toContain(`commit="${COMMIT}"`);
  const health = await podman(['image', 'inspect', '--format', '{{json .HealthCheck}}', TAG]);
  expect(health).toContain('/healthz');
});

it('should hold no emulator', async (context) => {
  need(context);
  const listing = await podman([
    'run',
    '--rm',
    ...RUN_OPTIONS,
    '--entrypoint',
    'node',
    TAG,
    '-e',
    "console.log(require('node:fs').readdirSync('/app').join(' '))",
  ]);
  expect(listing.trim().split(' ').sort()).toEqual(['dist', 'node_modules', 'package.json', 'schema']);
});

it('should stop on SIGTERM, draining, with exit code 0', async (context) => {
  need(context);
  await podman(['stop', '--time', '30', NAME], 60_000);
  const { stdout } = await promisify(execFile)('podman', [
    'inspect',
    '--format',
    '{{.State.ExitCode}}',
    NAME,
  ]);
  expect(stdout.trim()).toBe('0');
});
