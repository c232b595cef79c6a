/**
 * docs/upstream-contract.md's table of assumptions against the code: one row per assumption of
 * `src/upstream/dialect/assumptions.ts`, each naming the same setting, and every setting named is one the
 * gateway reads. So an assumption cannot be added, renamed or given another setting without its row.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_ASSUMPTIONS } from '../../src/upstream/dialect/assumptions.ts';
import { envSchema } from '../../src/config/env-schema.ts';

/** The table's rows, cut into trimmed cells. */
function assumptionRows(): string[][] {
  const text = readFileSync('docs/upstream-contract.md', 'utf8');
  const table = text.slice(text.indexOf('\n| assumption'));
  return table
    .slice(0, table.indexOf('\n\n'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\| (assumption|-)/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
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
