/**
 * The command line and the environment of `npm run upstream:check`. The account comes from the environment
 * only (`UPSTREAM_CHECK_USERNAME`, `UPSTREAM_CHECK_PASSWORD`): a password on a command line ends up in shell
 * histories and process lists.
 */
import { parseArgs } from 'node:util';
import { CheckCannotRun } from './probes/finding.ts';
import { DEFAULT_REQUESTS_PER_SECOND, MAX_REQUESTS_PER_SECOND, MIN_REQUESTS_PER_SECOND } from './pacer.ts';

/** What the command was asked to do. */
export interface CheckOptions {
  /** `--object-name`: an existing object type to read; without it, one of `schema/objects/` the upstream knows. */
  objectName: string | undefined;
  /** `--allow-writes`: the check may save and update objects of {@link writeObjectName}. */
  allowWrites: boolean;
  /** `--write-object-name`: a scratch type the check may create and update. */
  writeObjectName: string | undefined;
  /** `--env-out`: a file of `KEY=value` lines, one per setting determined. */
  envOut: string | undefined;
  /** `--json`: a file for the full report. */
  json: string | undefined;
  /** `--rate`: requests per second at most. */
  requestsPerSecond: number;
  username: string;
  /** Never printed, logged or written anywhere. */
  password: string;
}

/** The usage line. */
export const USAGE =
  'usage: npm run upstream:check -- [--object-name NAME] [--allow-writes --write-object-name NAME] ' +
  '[--env-out FILE] [--json FILE] [--rate N] (account: UPSTREAM_CHECK_USERNAME, UPSTREAM_CHECK_PASSWORD)';

const OBJECT_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

function objectName(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && !OBJECT_NAME.test(value)) {
    throw new CheckCannotRun(`${flag} must be an object name like com.acme.Invoice`);
  }
  return value;
}

/** Reads the options; a mistake throws {@link CheckCannotRun} with one line saying what to change. */
export function readCheckOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CheckOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        'object-name': { type: 'string' },
        'allow-writes': { type: 'boolean', default: false },
        'write-object-name': { type: 'string' },
        'env-out': { type: 'string' },
        json: { type: 'string' },
        rate: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CheckCannotRun(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values } = parsed;
  const rate = values.rate === undefined ? DEFAULT_REQUESTS_PER_SECOND : Number(values.rate);
  if (!Number.isFinite(rate) || rate < MIN_REQUESTS_PER_SECOND || rate > MAX_REQUESTS_PER_SECOND) {
    throw new CheckCannotRun(
      `--rate must be a number of requests per second from ${MIN_REQUESTS_PER_SECOND} to ${MAX_REQUESTS_PER_SECOND}`,
    );
  }
  const allowWrites = values['allow-writes'];
  const writeObjectName = objectName('--write-object-name', values['write-object-name']);
  if (allowWrites && writeObjectName === undefined) {
    throw new CheckCannotRun('--allow-writes needs --write-object-name: a scratch type the check may write');
  }
  const username = env.UPSTREAM_CHECK_USERNAME ?? '';
  const password = env.UPSTREAM_CHECK_PASSWORD ?? '';
  if (username === '' || password === '') {
    throw new CheckCannotRun(
      'set UPSTREAM_CHECK_USERNAME and UPSTREAM_CHECK_PASSWORD (a test account; never on the command line)',
    );
  }
  return {
    objectName: objectName('--object-name', values['object-name']),
    allowWrites,
    writeObjectName,
    envOut: values['env-out'],
    json: values.json,
    requestsPerSecond: rate,
    username,
    password,
  };
}
