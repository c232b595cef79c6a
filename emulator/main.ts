/**
 * `npm run emulator`: the upstream emulator on its own, configured from the environment
 * (see `readEmulatorConfig`). One log line at start; SIGINT/SIGTERM close it cleanly.
 */
import { DEMO } from './identity/demo-users.ts';
import { readEmulatorConfig } from './emulator-config.ts';
import { startEmulator } from './start-emulator.ts';
import { closeOnSignals } from '../support/close-on-signals.ts';

const fail = (line: string): never => {
  process.stderr.write(`emulator: ${line}\n`);
  process.exit(1);
};

let options;
try {
  options = readEmulatorConfig(process.env);
} catch (error) {
  fail(`invalid setting: ${error instanceof Error ? error.message : 'unknown'}`);
}

let emulator;
try {
  emulator = await startEmulator(options);
} catch (error) {
  fail(`cannot start: ${error instanceof Error ? error.message : 'unknown'}`);
}

if (emulator !== undefined && options !== undefined) {
  const running = emulator;
  process.stdout.write(
    `emulator (upstream JSONP object data service) listening on ${running.url} with node ${process.version}; ` +
      `demo login ${DEMO.username} / ${DEMO.password} (application ${DEMO.applicationCode}, organization ` +
      `${DEMO.organizationCode}, mobile ${DEMO.mobile}); matches=${options.matches ?? 'regex'}, ` +
      `pageStart=${options.pageStart ?? 'page0'}, store=${options.dataFile ?? 'memory'}\n`,
  );
  closeOnSignals(() => running.close());
}
