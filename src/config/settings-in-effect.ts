/**
 * Every setting with the value the gateway would run with and where that value came from, in the one order
 * of the settings (`EVERY_SETTING`): what `npm run config` prints. Secrets are masked: a setting whose name
 * says secret, password, token or key prints only whether it is set, and a URL prints without its password
 * (`REDIS_URL=redis://:***@host`).
 */
import type { z } from 'zod';
import { DERIVATION_INPUTS, envSchema, EVERY_SETTING } from './env-schema.ts';
import type { GatewayConfig } from './gateway-config.ts';
import { loadConfig, setVariables } from './load-config.ts';

/** Where a setting's value in effect came from. */
export type SettingSource = 'environment' | 'default' | 'derived';

/** One setting as `npm run config` prints it. */
export interface SettingInEffect {
  /** The environment variable. */
  name: string;
  /** The value in effect, as text, secrets masked. */
  value: string;
  source: SettingSource;
}

/** What a masked secret prints. */
export const MASKED = '(set, hidden)';

// `SESSION_SECRET`, `SESSION_SECRET_PREVIOUS`, and any later `*_PASSWORD`, `*_TOKEN` or `*_API_KEY`; not
// `MAX_TOKENS` (a count) nor `UPSTREAM_METADATA_KEY` (a field name).
const SECRET_NAME = /(?:^|_)(?:SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIALS?|API_KEY|PRIVATE_KEY)(?:_|$)/;

/** The value in effect of a derivation input left unset, or `null` where the schema's own default holds. */
type Derivations = {
  [K in keyof typeof DERIVATION_INPUTS]: ((config: GatewayConfig) => unknown) | null;
};

const EMBEDDED = 'the embedded emulator';
const upstreamAddress = (config: GatewayConfig) =>
  config.upstream.kind === 'embedded' ? EMBEDDED : undefined;

/** How each derivation input's value follows from the others when it is unset (`derived-settings.ts`). */
const DERIVATIONS: Derivations = {
  nodeEnv: (config) => (config.production ? 'production' : 'development'),
  logRequests: (config) => config.logRequests,
  apiUrl: upstreamAddress,
  baseUrl: upstreamAddress,
  studioUrl: upstreamAddress,
  serverUrl: upstreamAddress,
  upstream: null,
  emulatorPort: null,
  emulatorDataFile: null,
  organizationCode: (config) => config.organizationCode,
  introspection: (config) => config.introspection,
  landingPage: (config) => config.landingPage,
  maxConcurrentCallsPerSession: (config) => config.resilience.maxConcurrentCallsPerSession,
};

const derivationOf = new Map<string, ((config: GatewayConfig) => unknown) | null>(
  Object.entries(DERIVATION_INPUTS).map(([field, s]) => [s.env, DERIVATIONS[field as keyof Derivations]]),
);

/** What a URL's password (or a query parameter naming a credential) prints as. */
const HIDDEN = '***';

/** A URL with its password and credential-like query parameters hidden; any other text as it is. */
export function withoutPassword(text: string): string {
  if (!URL.canParse(text)) return text;
  const url = new URL(text);
  const params = [...url.searchParams.keys()].filter((key) => /pass|pwd|secret|token|key/i.test(key));
  if (url.password === '' && params.length === 0) return text;
  if (url.password !== '') url.password = HIDDEN;
  for (const key of params) url.searchParams.set(key, HIDDEN);
  return url.href;
}

/** What an unset setting means, from its doc line ("unset = in memory"). */
function unsetMeaning(schema: z.ZodType): string {
  const meaning = /unset = ([^.;]+)/i.exec(schema.description ?? '')?.[1];
  return meaning === undefined ? 'unset' : `unset (${meaning})`;
}

/** A parsed value as it would be written in the environment. */
function written(value: unknown): string {
  if (value instanceof RegExp) return value.source;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(String).join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return withoutPassword(String(value));
}

/**
 * Every setting in effect for `env`, in the settings' order.
 * @throws ConfigError as `loadConfig` does: settings the gateway would not start with.
 */
export function settingsInEffect(env: NodeJS.ProcessEnv = process.env): SettingInEffect[] {
  const config = loadConfig(env);
  const set = setVariables(env);
  const parsed: Record<string, unknown> = envSchema.parse(set);
  return EVERY_SETTING.map(({ env: name, schema }) => {
    const derive = derivationOf.get(name);
    const source: SettingSource = name in set ? 'environment' : derive ? 'derived' : 'default';
    const value = source === 'derived' && derive ? derive(config) : parsed[name];
    if (value === undefined) return { name, value: unsetMeaning(schema), source };
    return { name, value: SECRET_NAME.test(name) ? MASKED : written(value), source };
  });
}

/** The settings as three columns, one line each: the value last, as long lists and patterns are. */
export function formatSettingsInEffect(settings: readonly SettingInEffect[]): string {
  const nameWidth = Math.max(...settings.map((s) => s.name.length));
  const sourceWidth = Math.max('environment'.length, ...settings.map((s) => s.source.length));
  const line = (name: string, source: string, value: string) =>
    `${name.padEnd(nameWidth)}  ${source.padEnd(sourceWidth)}  ${value}`;
  return [line('setting', 'from', 'value'), ...settings.map((s) => line(s.name, s.source, s.value))].join(
    '\n',
  );
}
