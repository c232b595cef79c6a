/**
 * The real gateway command as production runs it, for the attack tests that measure a process: the
 * emulator command (`npm run emulator`) in a process of its own, then `node src/main.ts` with
 * `NODE_ENV=production` and `npm start`'s heap settings (`--max-semi-space-size=16 --max-old-space-size=256`,
 * read from package.json so the two cannot drift).
 *
 * The emulator is not in the test's process: there it shared a thread with the victim's reads the
 * fair-share tests time, so serving an attacker's 200 KiB pages upstream was counted as the gateway's delay
 * (victim p95 2–3.3× quiet in the test's thread, 1–1.8× with the emulator apart). Production has its
 * upstream on another machine.
 */
import { readFileSync } from 'node:fs';
import { stopProcess, type RunningProcess } from '../../support/child-process.ts';
import { startGatewayCommand } from '../../support/gateway-command.ts';
import { startEmulatorCommand } from './emulator-command.ts';
import { DEMO_OBJECTS_DIR } from './object-fixtures.ts';

/** A production gateway in front of its own emulator. */
export interface ProductionGateway {
  process: RunningProcess;
  /** The emulator's process. */
  upstream: RunningProcess;
  baseUrl: string;
  graphqlUrl: string;
  /** Stops both. */
  stop(): Promise<void>;
}

/** The Node options of `npm start` (package.json), e.g. `--max-old-space-size=256`. */
export function startNodeOptions(): string[] {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** What the emulator serves besides the demo types. */
export interface ProductionEmulatorOptions {
  /** Object names served with no declared type (`EMULATOR_OBJECT_TYPES`). */
  objectTypes?: readonly string[];
}

/** Starts the emulator command and the gateway command with production settings (`env` added). */
export async function startProductionGateway(
  env: Record<string, string> = {},
  emulatorOptions: ProductionEmulatorOptions = {},
): Promise<ProductionGateway> {
  const emulator = await startEmulatorCommand(
    emulatorOptions.objectTypes === undefined
      ? {}
      : { EMULATOR_OBJECT_TYPES: emulatorOptions.objectTypes.join(',') },
  );
  try {
    const command = await startGatewayCommand({
      upstreamUrl: emulator.url,
      objectTypesDir: DEMO_OBJECTS_DIR,
      nodeOptions: startNodeOptions(),
      env: { NODE_ENV: 'production', SESSION_SECRET: 'a-test-secret-of-at-least-32-characters', ...env },
    });
    return {
      process: command.process,
      upstream: emulator.process,
      baseUrl: command.baseUrl,
      graphqlUrl: command.graphqlUrl,
      stop: async () => {
        await stopProcess(command.process, 2_000);
        await stopProcess(emulator.process, 2_000);
      },
    };
  } catch (error) {
    await stopProcess(emulator.process, 2_000);
    throw error;
  }
}
