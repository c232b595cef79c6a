/**
 * A failed or interrupted test run leaves no server listening. A tiny vitest run, with this repository's
 * global setup, runs one test that starts a server the way the tests do (`startHttpProcess`, here a parent
 * process whose own child listens) and then: its worker dies (SIGKILL, as an out-of-memory kill does), or
 * the run is interrupted (SIGINT, a Ctrl-C), or the run itself is killed outright and the next run's start
 * sweeps what it left. Each time the listener must be gone, its grandchild included.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endOrphanedRuns, recordChild } from '../../support/child-registry.ts';
import { freePort } from '../../support/free-port.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'child-teardown-test-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
// The listener is a grandchild: ending the recorded child alone would leave it listening.
writeFileSync(
  join(dir, 'server.cjs'),
  `require('node:http').createServer((_q, s) => s.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');`,
);
writeFileSync(
  join(dir, 'parent.cjs'),
  `require('node:child_process').spawn(process.execPath, [${JSON.stringify(join(dir, 'server.cjs'))}, process.argv[2]], { stdio: 'inherit' });
setInterval(() => {}, 1000);`,
);
writeFileSync(
  join(dir, 'starts-a-server.child.ts'),
  `import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { startHttpProcess } from ${JSON.stringify(join(ROOT, 'support/child-process.ts'))};

it('starts a server, then its worker dies or the run is interrupted', async () => {
  const port = process.env.SERVER_PORT ?? '';
  await startHttpProcess({
    name: 'server',
    args: [${JSON.stringify(join(dir, 'parent.cjs'))}, port],
    readyUrl: \`http://127.0.0.1:\${port}/\`,
    timeoutMillis: 240_000,
  });
  writeFileSync(process.env.READY_FILE ?? '', 'ready');
  if (process.env.HOW === 'worker-dies') process.kill(process.pid, 'SIGKILL');
  await new Promise(() => undefined); // until the run is interrupted
});
`,
);
writeFileSync(
  join(dir, 'vitest.config.mjs'),
  `export default { test: { include: ['*.child.ts'], globalSetup: [${JSON.stringify(join(ROOT, 'test/support/global-setup.ts'))}], testTimeout: 600_000 } };`,
);

/** Starts the tiny run; resolves once its server answers, with the run's process and the server's port. */
async function startRun(how: 'worker-dies' | 'interrupted' | 'killed') {
  const port = await freePort();
  const readyFile = join(dir, `ready-${how}`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const run = recordChild(
    spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run'], {
      cwd: dir,
      env: { ...env, SERVER_PORT: String(port), READY_FILE: readyFile, HOW: how },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  run.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(run, 'exit');
  await expect.poll(() => existsSync(readyFile) || run.exitCode !== null, { timeout: 240_000 }).toBe(true);
  expect(existsSync(readyFile), output).toBe(true);
  return { run, port, exited, output: () => output };
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
async function listening(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

describe('a test run that fails or is interrupted', () => {
  it('should end the server a test started when the test worker dies', async () => {
    const { port, exited, output } = await startRun('worker-dies');
    const [code] = (await exited) as [number | null];
    expect(code, output()).not.toBe(0);
    await expect.poll(() => listening(port)).toBe(false);
    expect(output()).toMatch(/ended \d+ child process/);
  });

  it('should end the server a test started when the run is interrupted with SIGINT', async () => {
    const { run, port, exited, output } = await startRun('interrupted');
    expect(await listening(port)).toBe(true);
    run.kill('SIGINT');
    await exited;
    await expect.poll(() => listening(port)).toBe(false);
    expect(output()).toMatch(/ended \d+ child process/);
  });

  it('should end, at the next run, the server a run killed outright left behind', async () => {
    const { run, port, exited } = await startRun('killed');
    run.kill('SIGKILL');
    await exited;
    // Nothing of the killed run could end it: its server still answers until a next run starts.
    expect(await listening(port)).toBe(true);
    expect(endOrphanedRuns().length).toBeGreaterThan(0);
    await expect.poll(() => listening(port), { timeout: 60_000 }).toBe(false);
  });
});
