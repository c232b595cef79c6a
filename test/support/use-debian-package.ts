/**
 * Installs Debian's `packageName` before the calling file's tests when `binary` is missing, failing them
 * where it cannot (15 minutes allowed: apt may be slow on a loaded machine).
 */
import { beforeAll } from 'vitest';
import { ensureDebianPackage } from './debian-package.ts';

export function useDebianPackage(binary: string, packageName: string): void {
  beforeAll(async () => {
    const installed = await ensureDebianPackage({ binary, packageName });
    if (!installed.ok) throw new Error(installed.reason);
  }, 900_000);
}
