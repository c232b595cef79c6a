/**
 * SIGTERM on the real command (`node src/main.ts`, Node 24), in a child process, in front of an emulator
 * whose every answer takes 3 s: readiness flips first, a save in flight completes and is stored, and the
 * process exits 0; past the grace period the remaining connections are cut and it exits 1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { stopProcess, type RunningProcess } from '../../support/child-process.ts';
import { startGatewayCommand } from '../../support/gateway-command.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { LOGIN, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';

const LATENCY_MS = 3_000;
const SAVE = `mutation Save($data: JSONObject!) { saveObject(objectName: "com.example.LoanType", data: $data) { id } }`;

let emulator: RunningEmulator;
const processes: RunningProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-shutdown-'));
const dataFile = join(dataDir, 'objects.json');

beforeAll(async () => {
  // A durable emulator: the test reads what a save stored from its data file.
  emulator = await startEmulator({ port: 0, latencyMillis: LATENCY_MS, dataFile });
});
afterAll(async () => {
  await Promise.all(processes.map((started) => stopProcess(started, 0, 'SIGKILL')));
  await emulator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The records stored upstream (the emulator's data file). */
function storedRecords(): Record<string, unknown>[] {
  const file = JSON.parse(readFileSync(dataFile, 'utf8')) as {
    objects: { record: Record<string, unknown> }[];
  };
  return file.objects.map((o) => o.record);
}

/** Starts the gateway command in front of the slow emulator; answers the child and its base URL once it serves. */
async function startCommand(env: Record<string, string>) {
  const command = await startGatewayCommand({
    upstreamUrl: emulator.url,
    objectTypesDir: DEMO_OBJECTS_DIR,
    env,
  });
  processes.push(command.process);
  return { child: command.process, baseUrl: command.baseUrl };
}

async function token(baseUrl: string): Promise<string> {
  const answer = await postGraphql(`${baseUrl}/graphql`, LOGIN, {
    username: 'demo',
    password: 'demo-password',
  });
  return (answer.data?.login as { token: string }).token;
}

/** Waits until the emulator has received `count` saves (the gateway's call is then in flight). */
async function saveArrived(count: number): Promise<void> {
  await expect.poll(() => emulator.stats().save).toBe(count);
}

it('should flip readiness, finish the save in flight, and exit 0 on SIGTERM', async () => {
  // The save (3 s upstream) outlasts the 1.5 s drain delay: the listener closes while it is in flight. The
  // delay leaves a loaded machine ample time to see readiness flip before the listener closes.
  const { child, baseUrl } = await startCommand({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_GRACE_MS: '10000' });
  const auth = { authorization: `Bearer ${await token(baseUrl)}` };
  expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
  emulator.resetStats();

  const saving = postGraphql(`${baseUrl}/graphql`, SAVE, { data: { loanType: 'SIGTERM-test' } }, auth);
  await saveArrived(1);
  const exited = stopProcess(child, 30_000);

  // Readiness flips as soon as the signal is handled, while the listener still serves.
  let readiness: unknown;
  await expect
    .poll(async () => {
      const answer = await fetch(`${baseUrl}/readyz`);
      readiness = await answer.json();
      return answer.status;
    })
    .toBe(503);
  expect(readiness).toMatchObject({ status: 'draining' });

  const saved: GraphqlAnswer = await saving;
  expect(saved.errors).toBeUndefined();
  const id = (saved.data?.saveObject as { id: string }).id;
  expect(id).toEqual(expect.any(String));

  const { code, signal } = await exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  await expect(fetch(`${baseUrl}/healthz`)).rejects.toThrow();

  // The acknowledged save is really stored upstream.
  expect(storedRecords().find((record) => record._id === id)).toMatchObject({ loanType: 'SIGTERM-test' });
});

it('should cut what is still running after the grace period and exit 1', async () => {
  const { child, baseUrl } = await startCommand({ SHUTDOWN_GRACE_MS: '200' });
  const auth = { authorization: `Bearer ${await token(baseUrl)}` };
  emulator.resetStats();
  const saving = postGraphql(`${baseUrl}/graphql`, SAVE, { data: { loanType: 'too-slow' } }, auth).then(
    () => 'answered',
    () => 'cut',
  );
  await saveArrived(1);
  const exited = stopProcess(child, 30_000);
  expect(await saving).toBe('cut');
  const { code } = await exited;
  expect(code).toBe(1);
});
