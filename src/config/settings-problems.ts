/**
 * The problems of the settings that need only their presence to be found: which settings production
 * requires, and the upstream addresses' all-or-none rule. Each problem is one line naming one setting, so a
 * start lists them all at once instead of one failed start per missing setting (issue 20).
 */

/** The four upstream addresses: all of them, or none for the embedded emulator. */
export const UPSTREAM_KEYS = ['API_URL', 'BASE_URL', 'STUDIO_URL', 'SERVER_URL'] as const;

/** The values `NODE_ENV` may take; unset means development. */
export const NODE_ENVS = ['production', 'development', 'test'] as const;

/** One line of a refused start. */
export function settingProblem(key: string, message: string): string {
  return `Invalid setting ${key}: ${message}`;
}

/**
 * The presence problems of `env` (blank values already removed), one line each.
 *
 * In production: the four upstream addresses (unless `UPSTREAM=emulator` asks for the demo emulator),
 * `APPLICATION_CODE` and `ORGANIZATION_CODE` (a real upstream refuses a save without them; the organization
 * may instead come from each login, when `ALLOWED_ORGANIZATION_CODES` lists the ones to choose from) and
 * `SESSION_SECRET`. Anywhere: all four addresses or none, never with `UPSTREAM=emulator`, and with the
 * addresses an `APPLICATION_CODE`.
 */
export function presenceProblems(env: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  const set = UPSTREAM_KEYS.filter((key) => env[key] !== undefined);
  const emulator = env.UPSTREAM === 'emulator';
  if (set.length > 0 && set.length < UPSTREAM_KEYS.length) {
    const missing = UPSTREAM_KEYS.filter((key) => env[key] === undefined).join(', ');
    problems.push(settingProblem(missing, 'set all four upstream addresses, or none for the emulator'));
  }
  if (emulator && set.length > 0) {
    problems.push(
      settingProblem(
        'UPSTREAM',
        `"emulator" cannot be combined with ${set.join(', ')}; unset one or the other`,
      ),
    );
  }
  // Production never runs on demo data by accident: the embedded emulator must be asked for by name.
  const remote = set.length > 0 || (production && !emulator);
  if (production && set.length === 0 && !emulator) {
    for (const key of UPSTREAM_KEYS) {
      problems.push(
        settingProblem(
          key,
          'required in production (or UPSTREAM=emulator to run on the demo emulator on purpose)',
        ),
      );
    }
  }
  if (remote && env.APPLICATION_CODE === undefined) {
    problems.push(
      settingProblem(
        'APPLICATION_CODE',
        production ? 'required in production' : 'required when the upstream addresses are set',
      ),
    );
  }
  if (
    production &&
    !emulator &&
    env.ORGANIZATION_CODE === undefined &&
    env.ALLOWED_ORGANIZATION_CODES === undefined
  ) {
    problems.push(
      settingProblem(
        'ORGANIZATION_CODE',
        'required in production (the upstream refuses saves without one), unless ALLOWED_ORGANIZATION_CODES lists the organizations each login must choose from',
      ),
    );
  }
  if (production && env.SESSION_SECRET === undefined) {
    problems.push(settingProblem('SESSION_SECRET', 'required in production (at least 32 characters)'));
  }
  return problems;
}
