/**
 * The real gateway command as production runs it, for the attack tests that measure a process: an
 * emulator, then `node src/main.ts` with `NODE_ENV=production` and `npm start`'s heap settings
 * (`--max-semi-space-size=16 --max-old-space-size=256`, read from package.json so the two cannot drift).
 */
import { readFileSync } from 'node:fs';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { stopProcess, type RunningProcess } from '../../support/child-process.ts';
import { startGatewayCommand } from '../../support/gateway-command.ts';
import { DEMO_OBJECTS_DIR } from './object-fixtures.ts';

/** A production gateway in front of its own emulator. */
export interface ProductionGateway {
  process: RunningProcess;
  baseUrl: string;
  graphqlUrl: string;
  emulator: RunningEmulator;
  /** Stops both. */
  stop(): Promise<void>;
}

/** The Node options of `npm start` (package.json), e.g. `--max-old-space-size=256`. */
export function startNodeOptions(): string[] {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** Starts an emulator (`emulatorOptions` added) and the gateway command with production settings (`env` added). */
export async function startProductionGateway(
  env: Record<string, string> = {},
  emulatorOptions: Omit<EmulatorOptions, 'port'> = {},
): Promise<ProductionGateway> {
  const emulator = await startEmulator({ port: 0, ...emulatorOptions });
  try {
    const command = await startGatewayCommand({
      upstreamUrl: emulator.url,
      objectTypesDir: DEMO_OBJECTS_DIR,
      nodeOptions: startNodeOptions(),
      env: { NODE_ENV: 'production', SESSION_SECRET: 'a-test-secret-of-at-least-32-characters', ...env },
    });
    return {
      process: command.process,
      baseUrl: command.baseUrl,
      graphqlUrl: command.graphqlUrl,
      emulator,
      stop: async () => {
        await stopProcess(command.process, 2_000);
        await emulator.close();
      },
    };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}
