/**
 * The repository's Dockerfile built as a team builds it, with podman (Debian's, `--runtime runc`), for the
 * image test. No container registry is reachable from this machine, so the Dockerfile's base image
 * (`node:24-bookworm-slim`) is made here with the same parts the official one has: Debian bookworm
 * (`debootstrap --variant=minbase`), Node 24 (the pinned `node` package's binary), npm (this machine's), and
 * the `node` user (uid 1000); imported once as `localhost/node:24-bookworm-slim`, which the build then finds
 * without pulling. The machine reaches the npm registry and Debian through an egress proxy whose CA it trusts
 * (`NODE_EXTRA_CA_CERTS`, npm's `cafile`): the made base image trusts the same bundle, as a team's base image
 * carries its network's CA. The Dockerfile itself is built unchanged.
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDebianPackage } from './debian-package.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
/** The Dockerfile's base image, made locally (see the module comment). */
export const BASE_IMAGE = 'localhost/node:24-bookworm-slim';
/**
 * What every `podman run` needs here: runc (crun cannot start containers in this sandbox), and limits at or
 * under the sandbox's own (podman's defaults ask for more, which runc may not set: "error setting rlimit").
 */
export const RUN_OPTIONS = [
  '--runtime',
  'runc',
  '--ulimit',
  'nofile=4096:4096',
  '--ulimit',
  'nproc=4096:4096',
];
/** The CA bundle this machine trusts (the egress proxy's CA among them). */
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** Runs podman; long builds print a lot. */
export async function podman(args: readonly string[], timeoutMillis = 600_000): Promise<string> {
  const { stdout } = await run('podman', [...args], { timeout: timeoutMillis, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** Installs podman, runc and debootstrap if needed; answers why not when they cannot be had. */
export async function ensurePodman(): Promise<{ ok: true } | { ok: false; reason: string }> {
  for (const [binary, packageName] of [
    ['podman', 'podman'],
    ['runc', 'runc'],
    ['debootstrap', 'debootstrap'],
  ] as const) {
    const installed = await ensureDebianPackage({ binary, packageName });
    if (!installed.ok) return installed;
  }
  return { ok: true };
}

async function imageExists(name: string): Promise<boolean> {
  try {
    await podman(['image', 'exists', name]);
    return true;
  } catch {
    return false;
  }
}

/** The npm this machine runs (its package folder), copied into the base image beside Node. */
async function machineNpm(): Promise<string> {
  const { stdout } = await run('npm', ['root', '-g']);
  return join(stdout.trim(), 'npm');
}

/** Makes {@link BASE_IMAGE} unless it exists (a few minutes the first time on a machine). */
export async function ensureBaseImage(): Promise<void> {
  if (await imageExists(BASE_IMAGE)) return;
  const work = mkdtempSync(join(tmpdir(), 'node-base-'));
  const rootfs = join(work, 'rootfs');
  try {
    await run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian'], {
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    copyFileSync(join(ROOT, 'node_modules', 'node', 'bin', 'node'), join(rootfs, 'usr/local/bin/node'));
    mkdirSync(join(rootfs, 'usr/local/lib/node_modules'), { recursive: true });
    cpSync(await machineNpm(), join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
    if (existsSync(CA_BUNDLE)) {
      mkdirSync(join(rootfs, 'etc/ssl/certs'), { recursive: true });
      copyFileSync(CA_BUNDLE, join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
      writeFileSync(join(rootfs, 'etc/npmrc'), 'cafile=/etc/ssl/certs/ca-certificates.crt\n');
    }
    await run('chroot', [
      rootfs,
      'sh',
      '-c',
      'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    ]);
    await run('sh', [
      '-c',
      `tar -C "$1" -c . | podman import --change 'CMD ["node"]' --change "ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE}" - "$2"`,
      'sh',
      rootfs,
      BASE_IMAGE,
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds the repository's Dockerfile as `tag` (docker format, so that its HEALTHCHECK is kept), the base
 * image found locally, with `GIT_COMMIT`.
 */
export async function buildImage(tag: string, gitCommit: string): Promise<void> {
  await podman(
    [
      'build',
      '--runtime',
      'runc',
      '--pull=never',
      '--format',
      'docker',
      '--build-arg',
      `GIT_COMMIT=${gitCommit}`,
      '-t',
      tag,
      ROOT,
    ],
    1_200_000,
  );
}
