/**
 * `npm run emulator` (`node emulator/main.ts`) as a child process on a free loopback port, ready once its
 * `/__emulator/healthz` answers.
 */
import { startHttpProcess, type RunningProcess } from '../../support/child-process.ts';
import { freePort } from '../../support/free-port.ts';
import { DEMO_OBJECTS_DIR } from './object-fixtures.ts';

/** The command's script. */
export const EMULATOR_MAIN = new URL('../../emulator/main.ts', import.meta.url).pathname;

/** A running emulator command. */
export interface EmulatorCommand {
  process: RunningProcess;
  /** `http://127.0.0.1:PORT` */
  url: string;
}

/** Starts the emulator command with `env` (its `EMULATOR_*` settings; the port is chosen here). */
export async function startEmulatorCommand(env: Record<string, string> = {}): Promise<EmulatorCommand> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = await startHttpProcess({
    name: 'emulator',
    args: [EMULATOR_MAIN],
    // The demo types, not the repository's folder, where a team keeps its own; a test may set its own.
    env: {
      PATH: process.env.PATH ?? '',
      OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
      ...env,
      EMULATOR_PORT: String(port),
    },
    readyUrl: `${url}/__emulator/healthz`,
  });
  return { process: started, url };
}
