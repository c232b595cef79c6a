/**
 * Every setting of the gateway, described once (`setting.ts`): `SETTINGS`, laid out as `GatewayConfig`
 * reads them, and `DERIVATION_INPUTS`, the settings whose value in the config is derived from them and
 * others (`derived-settings.ts`). The flat schema of the environment is built from both; the cross-setting
 * rules are in `settings-problems.ts`.
 */
import { z } from 'zod';
import { AUTH_SETTINGS } from './auth-settings.ts';
import { CACHE_SETTINGS } from './cache-settings.ts';
import { bool, int, url } from './parsers.ts';
import { SERVER_SETTINGS } from './server-settings.ts';
import { setting, settingsOf, type DefaultsOf } from './setting.ts';
import { UPSTREAM_SETTINGS } from './upstream-settings.ts';

/** The values `NODE_ENV` may take; unset means development. */
const NODE_ENVS = ['production', 'development', 'test'] as const;

/** The settings read into the config as they are. */
export const SETTINGS = {
  ...SERVER_SETTINGS,
  ...UPSTREAM_SETTINGS,
  ...AUTH_SETTINGS,
  ...CACHE_SETTINGS,
} as const;

/** The settings the config derives its values from (`deriveSettings`), with no fixed default of their own. */
export const DERIVATION_INPUTS = {
  // Exactly one of three: `prod` or `Production` would otherwise start a development gateway (demo emulator).
  nodeEnv: setting(
    'NODE_ENV',
    z
      .enum(NODE_ENVS, { error: `must be one of ${NODE_ENVS.join(', ')} (exactly; unset means development)` })
      .optional(),
    '`production` turns on the production defaults and checks.',
  ),
  logRequests: setting(
    'LOG_REQUESTS',
    z.enum(['all', 'errors']).optional(),
    "Log every request (`all`), or only failed and slow ones (`errors`, production's default).",
  ),
  apiUrl: setting('API_URL', url.optional(), "The upstream's API base address."),
  baseUrl: setting('BASE_URL', url.optional(), "The upstream's base address."),
  studioUrl: setting('STUDIO_URL', url.optional(), "The upstream's studio base address."),
  serverUrl: setting('SERVER_URL', url.optional(), "The upstream's server base address."),
  upstream: setting(
    'UPSTREAM',
    z.enum(['emulator']).optional(),
    '`emulator`: the embedded emulator on purpose.',
  ),
  emulatorPort: setting(
    'EMULATOR_PORT',
    int(0, 65_535).default(0),
    "The embedded emulator's port; `0` lets the system choose a free one.",
  ),
  emulatorDataFile: setting(
    'EMULATOR_DATA_FILE',
    z.string().min(1).optional(),
    "The file the embedded emulator's data is kept in across restarts; unset = in memory.",
  ),
  organizationCode: setting(
    'ORGANIZATION_CODE',
    z.string().min(1).optional(),
    'The default organization of a login.',
  ),
  introspection: setting(
    'INTROSPECTION',
    bool.optional(),
    'Answer introspection; unset = not in production.',
  ),
  landingPage: setting('LANDING_PAGE', bool.optional(), 'Serve the landing page; unset = not in production.'),
  maxConcurrentCallsPerSession: setting(
    'UPSTREAM_MAX_CONCURRENT_PER_SESSION',
    int(1, 100_000).optional(),
    "One session's share of the upstream bulkhead; unset = a quarter of `UPSTREAM_MAX_CONCURRENT`.",
  ),
} as const;

/**
 * Every setting in one order: the derivation inputs, then the edge's, the upstream's and the sessions'
 * settings as their files declare them. The README's settings table and `npm run config` follow it.
 */
export const EVERY_SETTING = [...settingsOf(DERIVATION_INPUTS), ...settingsOf(SETTINGS)];
const every = EVERY_SETTING;

/** The environment as the gateway reads it: every setting, keyed by variable, parsed, with its default. */
export const envSchema = z.object(Object.fromEntries(every.map((s) => [s.env, s.schema])));

/** Each setting that has a fixed default, keyed by variable: the schema's own default, never another. */
export type SettingDefaults = DefaultsOf<typeof DERIVATION_INPUTS> & DefaultsOf<typeof SETTINGS>;

/** The fixed defaults of the schema (an unset variable parses to its default). */
export function schemaDefaults(): SettingDefaults {
  const defaults = every.flatMap((s) => {
    const parsed = s.schema.safeParse(undefined);
    return parsed.success && parsed.data !== undefined ? [[s.env, parsed.data]] : [];
  });
  // Exactly the settings whose schema has a `.default()`, which is what `DefaultsOf` keeps.
  return Object.fromEntries(defaults) as SettingDefaults;
}
