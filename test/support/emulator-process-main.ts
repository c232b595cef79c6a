/**
 * The child of `emulator-process.ts`: the embedded emulator with the options in `EMULATOR_OPTIONS` (JSON),
 * until it is signalled.
 */
import { startEmulator, type EmulatorOptions } from '../../emulator/index.ts';

const options = JSON.parse(process.env.EMULATOR_OPTIONS ?? '{}') as EmulatorOptions;
const emulator = await startEmulator(options);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
