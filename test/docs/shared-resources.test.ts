/**
 * The inventory of shared resources (docs/shared-resources.md) against the repository: every resource row
 * names a bound, who can consume it, one caller's share and at least one test, and every test it names
 * exists, so a row cannot point at a test that was renamed or never written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownTableRows } from '../support/markdown-table-rows.ts';

/** The resource rows of the inventory table (section rows such as `**Heap**` left out), cut into cells. */
function resourceRows(): string[][] {
  return markdownTableRows('docs/shared-resources.md', 'resource', /^\| (resource|-|\*\*)/);
}

describe('docs/shared-resources.md', () => {
  const rows = resourceRows();

  it('should list the shared resources, each with a bound, who can consume it, a share and a test', () => {
    expect(rows.length).toBeGreaterThan(15);
    for (const [resource = '', bound = '', who = '', share = '', tests = ''] of rows) {
      expect(bound, resource).not.toBe('');
      expect(who, resource).toMatch(/anonymous|any session|one user/);
      expect(share, resource).not.toBe('');
      expect(tests, resource).toMatch(/`test\/[^`]+\.test\.ts`/);
    }
  });

  it('should name only tests that exist', () => {
    const named = rows.flatMap((row) =>
      [...(row[4] ?? '').matchAll(/`(test\/[^`]+)`/g)].map((m) => m[1] ?? ''),
    );
    expect(named.filter((file) => !existsSync(file))).toEqual([]);
  });

  it('should leave nothing open', () => {
    expect(readFileSync('docs/shared-resources.md', 'utf8')).not.toMatch(/^## Open/m);
  });
});
