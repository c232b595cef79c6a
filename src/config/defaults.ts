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

/**
 * The gateway's own work shared per caller (`src/http/capacity/cpu-share.ts`; not settings): an account
 * halves every 100 ms; while another caller was admitted within the last second, a user may use a quarter
 * of the event loop, a client network without a session a tenth, and all of those together a quarter (networks
 * cost an attacker nothing; a network alone is not held); a caller's line holds 64 requests and a
 * wait is at most 5 s; all lines together hold 4,096; 10,000 accounts are kept.
 *
 * The half-life is the size of the burst a caller may take at once (a quarter of the loop for 100 ms ÷ ln 2
 * is 36 ms of work): at a second it was 360 ms, so a flooder that paused for a second had the whole loop for
 * half a second again, and another user's p95 beside 200 KiB pages was 2–3.3× its quiet one (100 ms:
 * 1.0–1.6×, `test/hardening/cpu-share-floods.test.ts`, four runs each).
 */
export const CPU_SHARE = {
  halfLifeMillis: 100,
  activeMillis: 1_000,
  userShare: 0.25,
  anonymousShare: 0.1,
  anonymousTotalShare: 0.25,
  maxWaitMillis: 5_000,
  maxWaitingPerCaller: 64,
  maxWaiting: 4_096,
  maxAccounts: 10_000,
} as const;
