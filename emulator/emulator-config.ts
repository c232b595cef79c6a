import { z } from 'zod';
import { readDeclaredObjectNames } from './store/declared-object-names.ts';
import { FAULT_MODES, WIRE_OPERATIONS, type EmulatorOptions } from './emulator-options.ts';
import { OBJECT_NAMES } from './store/seed-data.ts';

/** A Java-class-like object name: dotted identifiers (`com.acme.Invoice`). */
const OBJECT_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** The environment, as `process.env` holds it. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A setting that cannot be used; the message names it and says what is expected. */
export class EmulatorConfigError extends Error {
  override readonly name = 'EmulatorConfigError';
}

const whole = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** Each setting's schema; an empty value counts as unset. */
const SETTINGS = {
  EMULATOR_PORT: whole(0, 65_535),
  EMULATOR_HOST: z.string().min(1),
  EMULATOR_WRAPPER: z.enum(['plain', 'guard']),
  EMULATOR_MATCHES: z.enum(['regex', 'find', 'exact']),
  UPSTREAM_MATCHES: z.enum(['regex', 'find', 'exact']),
  EMULATOR_MATCHES_CASE: z.enum(['sensitive', 'insensitive']),
  UPSTREAM_MATCHES_CASE: z.enum(['sensitive', 'insensitive']),
  EMULATOR_METADATA_KEY: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a JSON key like data'),
  UPSTREAM_METADATA_KEY: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a JSON key like data'),
  EMULATOR_PAGE_START: z.enum(['page0', 'page1', 'offset']),
  UPSTREAM_PAGE_START: z.enum(['page0', 'page1', 'offset']),
  EMULATOR_SAVE_ID_AT: z.enum(['savedObjectId', 'data._id', 'data']),
  UPSTREAM_SAVE_ID_AT: z.enum(['savedObjectId', 'data._id', 'data']),
  EMULATOR_SAVE_WITH_ID: z.enum(['merges', 'replaces']),
  UPSTREAM_SAVE_WITH_ID: z.enum(['merges', 'replaces']),
  EMULATOR_UPDATE_FIELDS: z.enum(['data', 'params']),
  UPSTREAM_UPDATE_FIELDS: z.enum(['data', 'params']),
  EMULATOR_MAX_URL_BYTES: whole(256, 1_048_576),
  EMULATOR_MAX_PAGE_SIZE: whole(1, 100_000),
  EMULATOR_PAGE_ZERO: z.enum(['refuse', 'empty']),
  EMULATOR_TOTAL_COUNT: z.enum(['number', 'string', 'omit-when-empty']),
  EMULATOR_CHARSET: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(['utf-8', 'iso-8859-1'])),
  EMULATOR_FORM_LOGIN_TOKEN: z.enum(['true', 'false']).transform((value) => value === 'true'),
  EMULATOR_FORM_LOGIN_SESSION: z.enum(['token', 'cookie']),
  EMULATOR_ERROR_MESSAGES: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string(), z.string(), 'must be a JSON object of message → wording')),
  EMULATOR_READ_LAG_MS: whole(0, 600_000),
  EMULATOR_DROPPED_FIELDS: z.string().transform((list) =>
    list
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  ),
  EMULATOR_TRUNCATES_NUMBERS: z.enum(['true', 'false']).transform((value) => value === 'true'),
  EMULATOR_ESCAPES_NON_ASCII: z.enum(['true', 'false']).transform((value) => value === 'true'),
  EMULATOR_LATENCY_MS: whole(0, 600_000),
  EMULATOR_TOKEN_TTL_SECONDS: whole(1, 31_536_000),
  EMULATOR_DATA_FILE: z.string().min(1),
  EMULATOR_OBJECT_TYPES: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    )
    .pipe(
      z.array(z.string().regex(OBJECT_NAME, 'must be comma-separated object names like com.acme.Invoice')),
    ),
  OBJECT_TYPES_DIR: z.string().min(1),
  EMULATOR_FAULT_EVERY: whole(0, 1_000_000_000),
  EMULATOR_FAULT_MODE: z.enum(FAULT_MODES),
  EMULATOR_FAULT_OPERATIONS: z
    .string()
    .transform((list) => list.split(',').map((name) => name.trim()))
    .pipe(z.array(z.enum(WIRE_OPERATIONS))),
};

type Settings = { [K in keyof typeof SETTINGS]?: z.output<(typeof SETTINGS)[K]> };

/** Validates every setting; the first bad one throws, naming the setting and the problem. */
function parseSettings(env: Environment): Settings {
  const settings: Record<string, unknown> & Settings = {};
  for (const [name, schema] of Object.entries(SETTINGS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const result = schema.safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0]?.message ?? 'invalid value';
      throw new EmulatorConfigError(`${name}: ${issue} (got ${JSON.stringify(raw.slice(0, 100))})`);
    }
    settings[name] = result.data;
  }
  return settings;
}

function objectTypesOf(s: Settings): string[] {
  const demo = new Set<string>(OBJECT_NAMES);
  const names = [...readDeclaredObjectNames(s.OBJECT_TYPES_DIR), ...(s.EMULATOR_OBJECT_TYPES ?? [])];
  return [...new Set(names.filter((name) => !demo.has(name)))];
}

/**
 * The object types an emulator serves besides the demo ones, from `EMULATOR_OBJECT_TYPES` and the
 * `@dataObject` names of `OBJECT_TYPES_DIR` (default `schema/objects/`); for the gateway's embedded
 * emulator, which takes no other emulator setting. Throws {@link EmulatorConfigError}.
 */
export function readObjectTypes(env: Environment): string[] {
  return objectTypesOf(
    parseSettings({
      EMULATOR_OBJECT_TYPES: env.EMULATOR_OBJECT_TYPES,
      OBJECT_TYPES_DIR: env.OBJECT_TYPES_DIR,
    }),
  );
}

/** The options of `options` that are set: one left out keeps the emulator's default. */
function setOnly(options: Partial<EmulatorOptions>): Partial<EmulatorOptions> {
  return Object.fromEntries(Object.entries<unknown>(options).filter(([, value]) => value !== undefined));
}

/**
 * Reads the emulator command's settings: `EMULATOR_PORT` (4010), `EMULATOR_HOST`, `EMULATOR_WRAPPER`,
 * `EMULATOR_MATCHES` (default `UPSTREAM_MATCHES`), `EMULATOR_MATCHES_CASE` (default `UPSTREAM_MATCHES_CASE`),
 * `EMULATOR_METADATA_KEY` (default `UPSTREAM_METADATA_KEY`), `EMULATOR_PAGE_START` (default `UPSTREAM_PAGE_START`),
 * `EMULATOR_SAVE_ID_AT`, `EMULATOR_SAVE_WITH_ID`, `EMULATOR_UPDATE_FIELDS` (defaults: their `UPSTREAM_*`),
 * `EMULATOR_READ_LAG_MS`, `EMULATOR_DROPPED_FIELDS` (comma-separated), `EMULATOR_TRUNCATES_NUMBERS`,
 * `EMULATOR_ESCAPES_NON_ASCII`,
 * `EMULATOR_MAX_URL_BYTES`, `EMULATOR_MAX_PAGE_SIZE`, `EMULATOR_PAGE_ZERO`, `EMULATOR_TOTAL_COUNT`, `EMULATOR_CHARSET`,
 * `EMULATOR_ERROR_MESSAGES` (JSON), `EMULATOR_FORM_LOGIN_TOKEN`, `EMULATOR_FORM_LOGIN_SESSION`,
 * `EMULATOR_LATENCY_MS`, `EMULATOR_TOKEN_TTL_SECONDS`, `EMULATOR_DATA_FILE`, `EMULATOR_FAULT_EVERY`,
 * `EMULATOR_FAULT_MODE`, `EMULATOR_FAULT_OPERATIONS` (comma-separated), and the object types to serve
 * besides the demo ones: `EMULATOR_OBJECT_TYPES` (comma-separated) plus every `@dataObject(name:)` of
 * `OBJECT_TYPES_DIR` (default `schema/objects/`). Throws {@link EmulatorConfigError}.
 */
export function readEmulatorConfig(env: Environment): EmulatorOptions {
  const s = parseSettings(env);
  const every = s.EMULATOR_FAULT_EVERY ?? 0;
  if (every > 0 && s.EMULATOR_FAULT_MODE === undefined) {
    throw new EmulatorConfigError('EMULATOR_FAULT_MODE is required when EMULATOR_FAULT_EVERY is above 0');
  }
  const options: EmulatorOptions = {
    port: s.EMULATOR_PORT ?? 4010,
    host: s.EMULATOR_HOST ?? '127.0.0.1',
    wrapper: s.EMULATOR_WRAPPER ?? 'plain',
    matches: s.EMULATOR_MATCHES ?? s.UPSTREAM_MATCHES ?? 'regex',
    pageStart: s.EMULATOR_PAGE_START ?? s.UPSTREAM_PAGE_START ?? 'page0',
    latencyMillis: s.EMULATOR_LATENCY_MS ?? 0,
    tokenTtlSeconds: s.EMULATOR_TOKEN_TTL_SECONDS ?? 28_800,
    ...setOnly({
      // The write dialects follow the gateway's settings unless set; left out, the documented dialect.
      saveIdAt: s.EMULATOR_SAVE_ID_AT ?? s.UPSTREAM_SAVE_ID_AT,
      saveWithId: s.EMULATOR_SAVE_WITH_ID ?? s.UPSTREAM_SAVE_WITH_ID,
      updateFields: s.EMULATOR_UPDATE_FIELDS ?? s.UPSTREAM_UPDATE_FIELDS,
      matchesCase: s.EMULATOR_MATCHES_CASE ?? s.UPSTREAM_MATCHES_CASE,
      metadataKey: s.EMULATOR_METADATA_KEY ?? s.UPSTREAM_METADATA_KEY,
      maxUrlBytes: s.EMULATOR_MAX_URL_BYTES,
      maxPageSize: s.EMULATOR_MAX_PAGE_SIZE,
      pageZero: s.EMULATOR_PAGE_ZERO,
      totalCount: s.EMULATOR_TOTAL_COUNT,
      charset: s.EMULATOR_CHARSET,
      errorMessages: s.EMULATOR_ERROR_MESSAGES,
      formLoginToken: s.EMULATOR_FORM_LOGIN_TOKEN,
      formLoginSession: s.EMULATOR_FORM_LOGIN_SESSION,
      dataFile: s.EMULATOR_DATA_FILE,
      readLagMillis: s.EMULATOR_READ_LAG_MS,
      droppedFields: s.EMULATOR_DROPPED_FIELDS,
      truncatesNumbers: s.EMULATOR_TRUNCATES_NUMBERS,
      escapesNonAscii: s.EMULATOR_ESCAPES_NON_ASCII,
    }),
  };
  const objectTypes = objectTypesOf(s);
  if (objectTypes.length > 0) options.objectTypes = objectTypes;
  if (every > 0) {
    options.faults = { every, mode: s.EMULATOR_FAULT_MODE, operations: s.EMULATOR_FAULT_OPERATIONS };
  }
  return options;
}
