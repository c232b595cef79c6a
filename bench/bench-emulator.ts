/**
 * The emulator as the bench runs it: `npm run emulator`'s settings from the environment, plus the bench's
 * users (`bench-users.ts`), one per connection of the per-session workloads.
 */
import { readEmulatorConfig } from '../emulator/emulator-config.ts';
import { startEmulator } from '../emulator/start-emulator.ts';
import { benchUsers } from './bench-users.ts';
import { closeOnSignals } from '../support/close-on-signals.ts';

const emulator = await startEmulator({ ...readEmulatorConfig(process.env), users: benchUsers() });
process.stdout.write(`bench emulator listening on ${emulator.url}\n`);
closeOnSignals(() => emulator.close());
