/**
 * The default of every setting that has a fixed one, keyed by its environment variable: read from the
 * schema (`env-schema.ts`), where each is written once, for tests and documents that name a default. The
 * README's settings table is checked against it. Modules never re-apply a default: they take the config.
 */
import { EMULATOR_ORGANIZATION_CODE } from './derived-settings.ts';
import { schemaDefaults } from './env-schema.ts';

/** The fixed defaults, and `ORGANIZATION_CODE`'s with the emulator. */
export const SETTING_DEFAULTS = { ...schemaDefaults(), ORGANIZATION_CODE: EMULATOR_ORGANIZATION_CODE };

/** The largest upstream answer read (the upstream client's `maxResponseBytes`; not a setting). */
export const UPSTREAM_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Bytes of each upstream answer the answer budget's total never refuses (`answer-budget.ts`). */
export const UPSTREAM_SMALL_ANSWER_BYTES = 64 * 1024;

/** Upstream answers from this size on are parsed in a parse slot, one per user at a time (`parse-slots.ts`). */
export const UPSTREAM_LARGE_PARSE_BYTES = 256 * 1024;

/** Large upstream answers parsed at once, all users together (`parse-slots.ts`; not a setting). */
export const UPSTREAM_PARSE_SLOTS = 2;

/** A setting that has a fixed default. */
export type DefaultedSetting = keyof typeof SETTING_DEFAULTS;
