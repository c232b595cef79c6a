/**
 * `npm run upstream:check`: what the gateway's settings assume about the upstream, checked against the real
 * one (src/upstream-check/). Exit 0: the gateway can work with it with the printed settings (never without
 * one object type read); 1: it cannot; 2: the check could not run (usage, settings, unreachable, bad
 * credentials, an unknown `--object-name`, or without one no type of `schema/objects/` the upstream knows);
 * 3: nothing it cannot serve, but a row about a declared type could not be verified.
 */
import { writeFileSync } from 'node:fs';
import { readCheckOptions } from '../src/upstream-check/check-options.ts';
import { isUpstreamError } from '../src/errors/upstream-error.ts';
import { CheckCannotRun, EXIT } from '../src/upstream-check/probes/finding.ts';
import { renderEnv, renderReport } from '../src/upstream-check/render-report.ts';
import { runCheck } from '../src/upstream-check/run-check.ts';

async function main(): Promise<number> {
  const options = readCheckOptions(process.argv.slice(2), process.env);
  const report = await runCheck(options, process.env);
  process.stdout.write(renderReport(report));
  if (options.envOut !== undefined) writeFileSync(options.envOut, renderEnv(report.settings));
  if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
  return report.exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Never another error's message, stack or cause: they could hold a URL with the token. An
    // UpstreamError's message is the gateway's own text, built to hold no secret.
    const message =
      error instanceof CheckCannotRun
        ? error.message
        : isUpstreamError(error)
          ? `failed: ${error.message}`
          : `failed: ${error instanceof Error ? error.name : 'error'}`;
    process.stderr.write(`upstream:check: ${message}\n`);
    process.exitCode = EXIT.couldNotRun;
  },
);
