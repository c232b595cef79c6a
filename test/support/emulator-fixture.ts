/**
 * The emulator fixture: the embedded emulator on a free loopback port, seeded with the demo data, started
 * before a block's tests and stopped after them, with the demo user logged in.
 */
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { login, type Credentials } from './emulator-wire.ts';
import { lateBound } from './late-bound.ts';

/** What {@link useEmulator} hands a test file. */
export interface EmulatorFixture {
  emulator: RunningEmulator;
  /** The demo user's read credentials. */
  demo: Credentials;
}

/** Starts an emulator (`options` over port 0) for the tests of the calling block. */
export function useEmulator(options: EmulatorOptions = {}): EmulatorFixture {
  const [emulator, setEmulator] = lateBound<RunningEmulator>('the emulator');
  const [demo, setDemo] = lateBound<Credentials>('the demo login');
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator({ port: 0, ...options });
    setEmulator(running);
    setDemo(await login(running));
  });
  afterAll(async () => {
    await running?.close();
    setEmulator(undefined);
  });
  return { emulator, demo };
}
