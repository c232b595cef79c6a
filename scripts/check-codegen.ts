/**
 * `npm run check:codegen`: GraphQL Code Generator's own drift check (`--check`), plus what to do when it
 * fails. Its message lists the stale files only, and a team that has just added a type to schema/objects/
 * needs to know that the fix is to regenerate them.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = fileURLToPath(new URL('../node_modules/@graphql-codegen/cli/cjs/bin.js', import.meta.url));

const run = spawnSync(process.execPath, [cli, '--config', 'codegen.yml', '--check'], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) {
  process.stderr.write(
    '\ncheck:codegen failed. Stale files listed above are out of date with schema/ (a type added to ' +
      'schema/objects/ included): run `npm run codegen`, then commit src/generated/ and ' +
      'examples/web/src/generated/ with your schema change. Any other error is the schema itself: fix it first.\n',
  );
}
process.exit(run.status ?? 1);
