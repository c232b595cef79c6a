/**
 * `npm run config`: every setting with the value `npm start` would run with, where it came from
 * (environment, default, derived) and secrets masked, in the settings' order (`src/config/`). Settings the
 * gateway would refuse are named as `npm start` names them, and the command exits 1.
 */
import { ConfigError } from '../src/config/config-error.ts';
import { formatSettingsInEffect, settingsInEffect } from '../src/config/settings-in-effect.ts';

try {
  process.stdout.write(`${formatSettingsInEffect(settingsInEffect())}\n`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
