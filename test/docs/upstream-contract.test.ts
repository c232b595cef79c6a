/**
 * docs/upstream-contract.md's table of assumptions against the code: one row per assumption of
 * `src/upstream/dialect/assumptions.ts`, each naming the same setting, and every setting named is one the
 * gateway reads. So an assumption cannot be added, renamed or given another setting without its row.
 */
import { describe, expect, it } from 'vitest';
import { markdownTableRows } from '../support/markdown-table-rows.ts';
import { UPSTREAM_ASSUMPTIONS } from '../../src/upstream/dialect/assumptions.ts';
import { envSchema } from '../../src/config/env-schema.ts';

/** The table's rows, cut into trimmed cells. */
function assumptionRows(): string[][] {
  return markdownTableRows('docs/upstream-contract.md', 'assumption', /^\| (assumption|-)/);
}

describe('docs/upstream-contract.md, "Assumptions"', () => {
  const rows = assumptionRows();

  it('should have one row per assumption, in the same order, with the same setting', () => {
    expect(rows.map((row) => row[0])).toEqual(Object.keys(UPSTREAM_ASSUMPTIONS).map((name) => `\`${name}\``));
    for (const [name = '', , setting = ''] of rows) {
      const assumption = UPSTREAM_ASSUMPTIONS[name.replaceAll('`', '') as keyof typeof UPSTREAM_ASSUMPTIONS];
      expect(setting.replaceAll('`', ''), name).toBe(assumption.setting);
    }
  });

  it('should name only settings the gateway reads', () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const assumption of Object.values(UPSTREAM_ASSUMPTIONS)) {
      if (assumption.setting !== '–') expect(known.has(assumption.setting), assumption.setting).toBe(true);
    }
  });

  it('should say for every row how the check probes it and how the gateway verifies it', () => {
    for (const [name = '', assumes = '', , probe = '', runtime = ''] of rows) {
      expect(assumes, name).not.toBe('');
      expect(probe, name).not.toBe('');
      expect(runtime, name).not.toBe('');
    }
  });
});
