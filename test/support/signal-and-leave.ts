/**
 * A supervisor that signals and leaves, run as its own process: starts the gateway command
 * (`scripts/start.js`, no settings but PORT: the embedded emulator) in a process group of its own with
 * piped stdout and stderr, waits until it serves, logs in once, optionally waits `WAIT_MS`, prints the
 * gateway's pid, sends SIGTERM to the group and exits at once, closing its ends of the pipes.
 *
 * Usage: `node test/support/signal-and-leave.ts <port>`. In the environment, WAIT_MS shifts the moment of
 * the signal against the logger's one-second flush timer, and CLOSE_FIRST=true closes the pipes before the
 * signal rather than by exiting after it (which makes the gateway's exit flush meet a closed pipe for sure).
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_OBJECTS_DIR } from './object-fixtures.ts';
import { recordChild } from '../../support/child-registry.ts';

const port = process.argv[2] ?? '';
const gateway = spawn(process.execPath, ['scripts/start.js'], {
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { PATH: process.env.PATH ?? '', PORT: port, OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR },
});
// Its record outlives this supervisor: the test run's end ends the gateway if the test could not.
recordChild(gateway);
const pid = gateway.pid;
if (pid === undefined) throw new Error('the gateway did not start');
// Read the pipes (a supervisor collecting logs) until the very end.
gateway.stdout.resume();
gateway.stderr.resume();

const base = `http://127.0.0.1:${port}`;
let serving = false;
// Generous: on a loaded machine the gateway may take a minute or more to start.
const deadline = Date.now() + 240_000;
while (!serving && Date.now() < deadline) {
  serving = await fetch(`${base}/healthz`).then(
    (answer) => answer.ok,
    () => false,
  );
  if (!serving) await sleep(100);
}
if (!serving) {
  process.kill(-pid, 'SIGKILL');
  throw new Error(`the gateway did not serve on ${base}`);
}
const login = await fetch(`${base}/graphql`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    query: 'mutation { login(username: "demo", password: "demo-password") { token } }',
  }),
});
await login.text();
await sleep(Number(process.env.WAIT_MS ?? 0));
process.stdout.write(`${pid}\n`);
if (process.env.CLOSE_FIRST === 'true') {
  // Our ends of its pipes close first, as when a supervisor's log reader is already gone; then the signal.
  gateway.stdout.destroy();
  gateway.stderr.destroy();
}
process.kill(-pid, 'SIGTERM');
process.exit(0);
