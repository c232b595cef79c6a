/**
 * `npm run config` (scripts/print-config.ts) as a user runs it: every setting once, in the settings' order,
 * its value in effect and where it came from, secrets masked, and the settings `npm start` would refuse
 * named the same way.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EVERY_SETTING } from '../../src/config/env-schema.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SECRET = 'correct-horse-battery-staple-0123456789';
const REDIS_PASSWORD = 'redis-pass-word-42';

/** `npm run config` as package.json spells it, run by this Node without npm. */
function configArgs(): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const [command, ...args] = (scripts.config ?? '').split(' ');
  if (command !== 'node') throw new Error(`npm run config no longer runs node: ${String(scripts.config)}`);
  return args;
}

/** The settings whose rows the first test checks one by one. */
const SHOWN = [
  'NODE_ENV',
  'RELAY_NODE',
  'INTROSPECTION',
  'LOG_REQUESTS',
  'UPSTREAM_MAX_CONCURRENT_PER_SESSION',
  'BASE_URL',
  'MAX_PAGE_SIZE',
  'SESSION_SECRET',
  'SESSION_SECRET_PREVIOUS',
  'REDIS_URL',
  'EMULATOR_DATA_FILE',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function runConfig(env: Record<string, string>): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, configArgs(), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The printed rows: setting → [from, value]. */
function rowsOf(stdout: string): Map<string, [string, string]> {
  const lines = stdout.trimEnd().split('\n').slice(1);
  return new Map(
    lines.map((line) => {
      const [name = '', from = '', ...value] = line.split(/ {2,}/);
      return [name, [from, value.join('  ')]];
    }),
  );
}

describe('npm run config', () => {
  it('should print every setting once, in order, with its value in effect, its source, secrets masked', async () => {
    const { code, stdout, stderr } = await runConfig({
      NODE_ENV: 'production',
      UPSTREAM: 'emulator',
      SESSION_SECRET: SECRET,
      REDIS_URL: `redis://gateway:${REDIS_PASSWORD}@redis.internal:6379/0`,
      RELAY_NODE: 'true',
      MAX_PAGE_SIZE: '',
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^setting +from +value\n/);
    const rows = rowsOf(stdout);
    expect([...rows.keys()]).toEqual(EVERY_SETTING.map((s) => s.env));
    expect(Object.fromEntries([...rows].filter(([name]) => SHOWN.includes(name)))).toEqual({
      NODE_ENV: ['environment', 'production'],
      RELAY_NODE: ['environment', 'true'],
      // Production's defaults, derived from NODE_ENV.
      INTROSPECTION: ['derived', 'false'],
      LOG_REQUESTS: ['derived', 'errors'],
      UPSTREAM_MAX_CONCURRENT_PER_SESSION: ['derived', '16'],
      BASE_URL: ['derived', 'the embedded emulator'],
      // An empty variable is unset, as everywhere in the settings.
      MAX_PAGE_SIZE: ['default', '100'],
      SESSION_SECRET: ['environment', '(set, hidden)'],
      SESSION_SECRET_PREVIOUS: ['default', 'unset'],
      REDIS_URL: ['environment', 'redis://gateway:***@redis.internal:6379/0'],
      EMULATOR_DATA_FILE: ['default', 'unset (in memory)'],
    });
    expect(stdout).not.toContain(SECRET);
    expect(stdout).not.toContain(REDIS_PASSWORD);
  });

  it('should exit 1 naming the settings npm start would refuse, printing no table', async () => {
    const { code, stdout, stderr } = await runConfig({ NODE_ENV: 'production', PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Invalid setting PORT: /);
    expect(stderr).toContain('Invalid setting SESSION_SECRET: required in production');
  });
});
