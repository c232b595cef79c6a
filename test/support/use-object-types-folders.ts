/**
 * Object types folders (`OBJECT_TYPES_DIR`, `buildSchema({ objectsDir })`) written for the calling test file
 * from SDL in the test itself, each a fresh temporary folder, all removed after the file's tests: the tests
 * of typed types, of their mistakes and of what the gateway estimates from them need a folder of a few
 * files of their own, never the team's `schema/objects/`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Writes `files` (file name → SDL) into a new folder and answers its path. */
export type ObjectTypesFolder = (files: Readonly<Record<string, string>>) => string;

/**
 * Call at the top of a test file (it registers the `afterAll` that removes the folders); `prefix` names the
 * folders in the temporary directory, so one left behind says which file made it.
 */
export function useObjectTypesFolders(prefix: string): ObjectTypesFolder {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (files) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
}
