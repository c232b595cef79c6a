/**
 * Assembly step of `npm start` (and `npm run example`) without upstream addresses: the emulator in-process,
 * on the settings' `UPSTREAM_*` switches, and the settings with its address filled in.
 */
import { resolve } from 'node:path';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { withEmulatorAt } from '../config/upstream-urls.ts';
import { addressInUseLine, isAddressInUse, StartProblem } from './start-problem.ts';

/** A running embedded emulator. */
export interface EmbeddedEmulator {
  /** The settings, the emulator's address as all four upstream addresses. */
  config: GatewayConfig;
  /** Its address. */
  url: string;
  /** The absolute path of the file its data is kept in, or `undefined` when it lives in memory. */
  dataFile: string | undefined;
  /** The demo account, for the start banner. */
  demo: { username: string; mobile: string; password: string };
  close(): Promise<void>;
}

/**
 * The emulator's switches that must follow the gateway's settings (`UPSTREAM_MATCHES`,
 * `UPSTREAM_MATCHES_CASE`, `UPSTREAM_METADATA_KEY`, `UPSTREAM_PAGE_START`, `UPSTREAM_SAVE_ID_AT`,
 * `UPSTREAM_SAVE_WITH_ID`, `UPSTREAM_UPDATE_FIELDS`), so both sides agree: the embedded emulator's, and the
 * test harness's.
 */
export function emulatorSwitchesOf(config: GatewayConfig): {
  matches: GatewayConfig['matchesMode'];
  matchesCase: GatewayConfig['matchesCase'];
  metadataKey: GatewayConfig['metadataKey'];
  pageStart: GatewayConfig['pageStartMode'];
  saveIdAt: GatewayConfig['saveIdAt'];
  saveWithId: GatewayConfig['saveWithId'];
  updateFields: GatewayConfig['updateFields'];
} {
  return {
    matches: config.matchesMode,
    matchesCase: config.matchesCase,
    metadataKey: config.metadataKey,
    pageStart: config.pageStartMode,
    saveIdAt: config.saveIdAt,
    saveWithId: config.saveWithId,
    updateFields: config.updateFields,
  };
}

/** The emulator settings the embedded emulator reads; it takes its dialect from the `UPSTREAM_*` settings. */
const EMBEDDED_EMULATOR_SETTINGS = new Set(['EMULATOR_PORT', 'EMULATOR_OBJECT_TYPES', 'EMULATOR_DATA_FILE']);

/**
 * The line saying which `EMULATOR_*` settings of `env` the embedded emulator ignores, or `undefined` when
 * none is set: a team that sets `EMULATOR_CHARSET` to try a dialect with `npm start` would otherwise see
 * nothing change and not know why.
 */
export function ignoredEmulatorSettingsLine(env: NodeJS.ProcessEnv): string | undefined {
  const ignored = Object.keys(env)
    .filter((name) => name.startsWith('EMULATOR_') && !EMBEDDED_EMULATOR_SETTINGS.has(name))
    .sort();
  if (ignored.length === 0) return undefined;
  return (
    `npm start ignores ${ignored.join(', ')}: the embedded emulator takes only EMULATOR_PORT, ` +
    'EMULATOR_OBJECT_TYPES and EMULATOR_DATA_FILE, and its dialect from the UPSTREAM_* settings. To try an ' +
    'emulator setting, run `npm run emulator` with it and point the gateway at it (API_URL, BASE_URL, ' +
    'STUDIO_URL and SERVER_URL set to its address).'
  );
}

/**
 * Starts the emulator of the embedded target (`config.upstream.kind === 'embedded'`).
 * @throws StartProblem naming `EMULATOR_PORT` when its port is busy.
 */
export async function startEmbeddedEmulator(config: GatewayConfig, port: number): Promise<EmbeddedEmulator> {
  // Loaded only when embedded: the image ships no emulator, and its process-wide V8 regex flag must
  // never be set inside a gateway that talks to a real upstream.
  const { startEmulator, readObjectTypes, DEMO } = await import('../../emulator/index.ts');
  const setting = config.upstream.kind === 'embedded' ? config.upstream.dataFile : undefined;
  const dataFile = setting === undefined ? undefined : resolve(setting);
  if (config.production) {
    process.stderr.write(
      "\nWARNING: UPSTREAM=emulator in production: the gateway serves the embedded emulator's DEMO data\n" +
        'and demo passwords, not a real upstream. Set API_URL, BASE_URL, STUDIO_URL and SERVER_URL instead.\n\n',
    );
  }
  const ignored = ignoredEmulatorSettingsLine(process.env);
  if (ignored !== undefined) process.stderr.write(`\nWARNING: ${ignored}\n\n`);
  // The embedded emulator follows the gateway's UPSTREAM_* switches, so both sides agree. Port 0 (the
  // default) lets the system choose, so a busy 4010 never stops `npm start`.
  const emulator = await startEmulator({
    port,
    host: '127.0.0.1',
    ...emulatorSwitchesOf(config),
    // The team's own types (schema/objects/, EMULATOR_OBJECT_TYPES) are served too, empty at first.
    objectTypes: readObjectTypes(process.env),
    // A team restarts after every SDL change: what it saved must still be there (`npm run emulator` alike).
    ...(dataFile === undefined ? {} : { dataFile }),
  }).catch((error: unknown) => {
    throw isAddressInUse(error)
      ? new StartProblem(addressInUseLine('embedded emulator', '127.0.0.1', port, 'EMULATOR_PORT'))
      : error;
  });
  return {
    config: withEmulatorAt(config, emulator.url),
    url: emulator.url,
    dataFile,
    demo: DEMO,
    close: () => emulator.close(),
  };
}
