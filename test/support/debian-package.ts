/**
 * Installs a Debian package a test needs (Chromium, redis-server, a JDK) when its binary is missing, for CI
 * machines that start bare. Vitest runs test files in parallel, and two `apt-get` runs at once collide on
 * dpkg's lock ("apt-get install … failed (exit 100)"), so every install holds one lock file through
 * `flock`: the second test waits, then finds the binary there and installs nothing. apt's own lock timeout
 * covers an apt run outside the tests (unattended upgrades).
 */
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The lock file every install of the test suites holds. */
const LOCK_FILE = join(tmpdir(), 'jsonp-graphql-gateway-apt.lock');
/** Longest wait for the lock and for one install, in milliseconds (Chromium takes minutes on a slow mirror). */
const INSTALL_TIMEOUT_MILLIS = 900_000;

/**
 * Inside the lock: nothing when the binary is there (another test just installed it); else install, and on
 * failure (stale or missing package lists) `apt-get update` and install again.
 */
const INSTALL_SCRIPT = [
  'binary="$1"; package="$2"',
  'command -v "$binary" >/dev/null 2>&1 && exit 0',
  'install() { apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$package"; }',
  'install || { apt-get -o DPkg::Lock::Timeout=300 update -qq && install; }',
].join('\n');

/** What to install: `binary` (a name on PATH or an absolute path) comes with Debian's `packageName`. */
export interface DebianPackage {
  binary: string;
  packageName: string;
  /** Longest wait for the lock plus the install, in milliseconds. Default `900_000`. */
  timeoutMillis?: number;
}

/** `{ ok: true }` when the binary is there (now); else why not, for a skip or an error message. */
export type EnsureResult = { ok: true } | { ok: false; reason: string };

async function hasBinary(binary: string): Promise<boolean> {
  try {
    await run('sh', ['-c', 'command -v "$1"', 'sh', binary]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure `binary` exists, installing `packageName` with apt-get if needed (root only, as in CI).
 * Serialised across processes; never throws.
 */
export async function ensureDebianPackage({
  binary,
  packageName,
  timeoutMillis = INSTALL_TIMEOUT_MILLIS,
}: DebianPackage): Promise<EnsureResult> {
  if (await hasBinary(binary)) return { ok: true };
  if (process.getuid?.() !== 0) {
    return {
      ok: false,
      reason: `${binary} is not installed and the tests do not run as root (apt-get install ${packageName})`,
    };
  }
  try {
    await run(
      'flock',
      [
        '--wait',
        String(Math.ceil(timeoutMillis / 1000)),
        LOCK_FILE,
        'sh',
        '-c',
        INSTALL_SCRIPT,
        'sh',
        binary,
        packageName,
      ],
      {
        timeout: timeoutMillis,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    );
  } catch (error) {
    const detail =
      error instanceof Error ? error.message.split('\n').slice(-3).join(' ').slice(-300) : String(error);
    return { ok: false, reason: `apt-get install ${packageName} failed: ${detail}` };
  }
  return (await hasBinary(binary))
    ? { ok: true }
    : { ok: false, reason: `apt-get installed ${packageName} but ${binary} is still missing` };
}
