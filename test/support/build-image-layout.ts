/**
 * The image's layout in a new temporary folder (prefix `prefix`), as the Dockerfile lays it: the bundle built
 * by `scripts/build.ts` into `dist/`, beside `schema/`, `package.json` and (linked) this repository's
 * `node_modules/`. Answers the folder and what the build printed.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = new URL('../../', import.meta.url).pathname;

export async function buildImageLayout(prefix: string): Promise<{ image: string; buildOutput: string }> {
  const image = mkdtempSync(join(tmpdir(), prefix));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/build.ts', `--outdir=${join(image, 'dist')}`],
    { cwd: ROOT },
  );
  cpSync(join(ROOT, 'schema'), join(image, 'schema'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(image, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(image, 'node_modules'));
  return { image, buildOutput: stdout };
}
