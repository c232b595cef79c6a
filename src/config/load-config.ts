/**
 * Every setting of the gateway, read from the environment and validated once at start. Bad settings stop
 * the start with one clear line each, all of them at once (`loadConfig` throws a `ConfigError`).
 */
import { ConfigError } from './config-error.ts';
import { deriveSettings } from './derived-settings.ts';
import { DERIVATION_INPUTS, envSchema, SETTINGS } from './env-schema.ts';
import type { GatewayConfig } from './gateway-config.ts';
import { readSettings } from './setting.ts';
import { crossProblems, presenceProblems, settingProblem } from './settings-problems.ts';

/** The variables of `env` that are set: an empty one counts as unset, as everywhere in the settings. */
export function setVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

/**
 * Reads and validates the settings.
 * @throws ConfigError naming every bad setting, one line each.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const blankless = setVariables(env);
  const parsed = envSchema.safeParse(blankless);
  // Every problem at once: the schema's (the first of each setting), then the missing ones.
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0] ?? 'settings');
    if (!seen.has(key)) problems.push(settingProblem(key, issue.message));
    seen.add(key);
  }
  problems.push(...presenceProblems(blankless));
  if (!parsed.success) throw new ConfigError(problems.join('\n'));
  const settings = readSettings(SETTINGS, parsed.data);
  const derived = deriveSettings(readSettings(DERIVATION_INPUTS, parsed.data), settings);
  const config: GatewayConfig = {
    ...settings,
    ...derived,
    resilience: { ...settings.resilience, ...derived.resilience },
  };
  problems.push(...crossProblems(config));
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return config;
}
