/** What the check's tests share besides running the command: their emulators, and reading a finding. */
import { afterEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import type { CheckRun } from './check-command.ts';

/** Starts emulators on free ports for the file's tests; each is closed after the test that started it. */
export function useCheckEmulators(): (options?: EmulatorOptions) => Promise<RunningEmulator> {
  let running: RunningEmulator[] = [];
  afterEach(async () => {
    await Promise.all(running.map((e) => e.close()));
    running = [];
  });
  return async (options = {}) => {
    const started = await startEmulator({ port: 0, ...options });
    running.push(started);
    return started;
  };
}

/** The detail of the run's finding on `topic`, if it reported one. */
export function detailOf(run: CheckRun, topic: string): string | undefined {
  return run.report?.findings.find((f) => f.topic === topic)?.detail;
}
