/**
 * The one description of a setting: the environment variable it is read from and its zod schema, which
 * carries its parser, its default (`.default()`) and its doc line (`.describe()`). Settings are laid out in
 * a tree shaped like `GatewayConfig` (`env-schema.ts`); the flat environment schema, the config's type, its
 * values and `SETTING_DEFAULTS` are all derived from that tree, so a setting is written once.
 */
import type { z } from 'zod';

/** One setting: where it is read from, and how (see the module comment). */
export interface Setting<E extends string = string, S extends z.ZodType = z.ZodType> {
  readonly env: E;
  readonly schema: S;
}

/** A tree of settings, keyed by the config's field names. */
export interface SettingsLayout {
  readonly [field: string]: Setting | SettingsLayout;
}

/** Describes one setting: `env` is its variable, `schema` parses it (and gives its default), `doc` one line. */
export function setting<const E extends string, S extends z.ZodType>(
  env: E,
  schema: S,
  doc: string,
): Setting<E, S> {
  return { env, schema: schema.describe(doc) };
}

/** The config a layout reads into: each setting's parsed value at its field. */
export type ConfigOf<L> = {
  -readonly [K in keyof L]: L[K] extends Setting
    ? z.output<L[K]['schema']>
    : L[K] extends SettingsLayout
      ? ConfigOf<L[K]>
      : never;
};

/** Every setting of a layout (of a group one level down too: layouts nest once), as a union. */
export type SettingOf<L> = {
  [K in keyof L]: L[K] extends Setting ? L[K] : Extract<L[K][keyof L[K]], Setting>;
}[keyof L];

/** The settings of a layout that have a fixed default, keyed by variable, with that default's type. */
export type DefaultsOf<L> = {
  [T in Extract<SettingOf<L>, Setting> as T['schema'] extends z.ZodDefault ? T['env'] : never]: z.output<
    T['schema']
  >;
};

function isSetting(entry: Setting | SettingsLayout): entry is Setting {
  return typeof entry.env === 'string' && typeof entry.schema === 'object';
}

/** Every setting of a layout, in the layout's order. */
export function settingsOf(layout: SettingsLayout): Setting[] {
  return Object.values(layout).flatMap((entry) => (isSetting(entry) ? [entry] : settingsOf(entry)));
}

/** The config of a layout from the environment its schema parsed (`envSchema`), field by field. */
export function readSettings<L extends SettingsLayout>(
  layout: L,
  env: Readonly<Record<string, unknown>>,
): ConfigOf<L> {
  const fields = Object.entries(layout).map(([field, entry]) => [
    field,
    isSetting(entry) ? env[entry.env] : readSettings(entry, env),
  ]);
  // Each value was parsed by its setting's own schema, so it has the type `ConfigOf` gives it.
  return Object.fromEntries(fields) as ConfigOf<L>;
}
