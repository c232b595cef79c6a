/** Runs `scripts/upstream-check.ts` against an emulator, as a team would run `npm run upstream:check`. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckReport } from '../../src/upstream-check/probes/finding.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

const SCRIPT = new URL('../../scripts/upstream-check.ts', import.meta.url).pathname;

/** What one run left behind. */
export interface CheckRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The `--env-out` file's text (empty when none was written). */
  envText: string;
  /** The `--env-out` lines as settings. */
  env: Record<string, string>;
  /** The `--json` file's text and report (undefined when none was written). */
  jsonText: string;
  report: CheckReport | undefined;
}

/** The account and the upstream of a run; `url` serves all four addresses. */
export interface CheckTarget {
  url: string;
  username?: string;
  password?: string;
  env?: Record<string, string>;
}

/** Runs the check with `--env-out` and `--json` in a fresh folder and `--rate 50` unless `args` sets one. */
export function runUpstreamCheck(target: CheckTarget, args: readonly string[]): Promise<CheckRun> {
  const dir = mkdtempSync(join(tmpdir(), 'upstream-check-test-'));
  const envOut = join(dir, 'upstream.env');
  const json = join(dir, 'report.json');
  const rate = args.includes('--rate') ? [] : ['--rate', '50'];
  const { url } = target;
  return new Promise((done) => {
    execFile(
      process.execPath,
      [SCRIPT, ...args, ...rate, '--env-out', envOut, '--json', json],
      {
        env: {
          PATH: process.env.PATH ?? '',
          ...{ API_URL: url, BASE_URL: url, STUDIO_URL: url, SERVER_URL: url },
          APPLICATION_CODE: 'demo',
          ORGANIZATION_CODE: 'acme',
          UPSTREAM_CHECK_USERNAME: target.username ?? 'demo',
          UPSTREAM_CHECK_PASSWORD: target.password ?? 'demo-password',
          // The demo types, not the repository's folder, where a team keeps its own; a test may set its own.
          OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
          ...target.env,
        },
        // Only catches a hang (below the tests' time limit): a loaded machine makes the check slow.
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        const envText = existsSync(envOut) ? readFileSync(envOut, 'utf8') : '';
        const jsonText = existsSync(json) ? readFileSync(json, 'utf8') : '';
        const env = Object.fromEntries(
          envText
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
        );
        done({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1,
          stdout,
          stderr,
          envText,
          env,
          jsonText,
          report: jsonText === '' ? undefined : (JSON.parse(jsonText) as CheckReport),
        });
      },
    );
  });
}

/** The verdict of `topic` in a run's report. */
export function verdictOf(run: CheckRun, topic: string): string | undefined {
  return run.report?.findings.find((f) => f.topic === topic)?.verdict;
}
