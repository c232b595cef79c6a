/**
 * The values of the config that no single setting gives: each is derived here, and only here, from the
 * settings it depends on (the production defaults, the upstream target, the per-session share of the
 * bulkhead). Modules take them as given.
 */
import type { UpstreamUrls } from '../upstream/client/types.ts';
import type { DERIVATION_INPUTS, SETTINGS } from './env-schema.ts';
import type { ConfigOf } from './setting.ts';

/** Where the upstream is: four base addresses, or the embedded emulator. */
export type UpstreamTarget =
  | { kind: 'remote'; urls: UpstreamUrls }
  | {
      kind: 'embedded';
      /** `EMULATOR_PORT`; `0` (the default) lets the system choose a free port. */
      emulatorPort: number;
      /** `EMULATOR_DATA_FILE`: the file its data is kept in across restarts; `undefined` = in memory. */
      dataFile?: string;
      /** `UPSTREAM=emulator` asked for it explicitly (required in production, where it is loudly logged). */
      explicit: boolean;
      /** All four at the emulator's address, once it listens (`withEmulatorAt`); unset before. */
      urls?: UpstreamUrls;
    };

/** The organization of the embedded emulator's demo data, the default `ORGANIZATION_CODE` beside it. */
export const EMULATOR_ORGANIZATION_CODE = 'acme';

/** The derived values of the config. */
export interface DerivedSettings {
  /** `NODE_ENV=production`. */
  production: boolean;
  /** `LOG_REQUESTS`; unset: `errors` in production, `all` otherwise. */
  logRequests: 'all' | 'errors';
  /** `API_URL`, `BASE_URL`, `STUDIO_URL`, `SERVER_URL`, or the embedded emulator. */
  upstream: UpstreamTarget;
  /** `ORGANIZATION_CODE`; unset: the demo's organization with the emulator, none with a real upstream. */
  organizationCode: string | undefined;
  /** `INTROSPECTION`; unset: off in production. */
  introspection: boolean;
  /** `LANDING_PAGE`; unset: off in production. */
  landingPage: boolean;
  resilience: {
    /** `UPSTREAM_MAX_CONCURRENT_PER_SESSION`; unset: a quarter of `UPSTREAM_MAX_CONCURRENT`. */
    maxConcurrentCallsPerSession: number;
  };
}

/** The derived values from the inputs and the settings they depend on. */
export function deriveSettings(
  inputs: ConfigOf<typeof DERIVATION_INPUTS>,
  settings: ConfigOf<typeof SETTINGS>,
): DerivedSettings {
  const production = inputs.nodeEnv === 'production';
  const { apiUrl, baseUrl, studioUrl, serverUrl } = inputs;
  const upstream: UpstreamTarget =
    apiUrl && baseUrl && studioUrl && serverUrl
      ? { kind: 'remote', urls: { apiUrl, baseUrl, studioUrl, serverUrl } }
      : {
          kind: 'embedded',
          emulatorPort: inputs.emulatorPort,
          explicit: inputs.upstream === 'emulator',
          ...(inputs.emulatorDataFile === undefined ? {} : { dataFile: inputs.emulatorDataFile }),
        };
  const maxConcurrent = settings.resilience.maxConcurrentCalls;
  return {
    production,
    logRequests: inputs.logRequests ?? (production ? 'errors' : 'all'),
    upstream,
    organizationCode:
      inputs.organizationCode ?? (upstream.kind === 'embedded' ? EMULATOR_ORGANIZATION_CODE : undefined),
    introspection: inputs.introspection ?? !production,
    landingPage: inputs.landingPage ?? !production,
    resilience: {
      // A quarter of the bulkhead, so four looping sessions still leave room for everyone else.
      maxConcurrentCallsPerSession:
        inputs.maxConcurrentCallsPerSession ?? Math.max(1, Math.floor(maxConcurrent / 4)),
    },
  };
}
