/**
 * The README's settings table against the code: it lists exactly the settings the schema reads, and every
 * fixed default as `SETTING_DEFAULTS` holds it, so neither can drift from the other.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS, type DefaultedSetting } from '../../src/config/defaults.ts';
import { envSchema } from '../../src/config/env-schema.ts';

/** One row of the table: its settings, and the default cell cut into one part per setting when it can be. */
interface SettingsRow {
  names: string[];
  defaults: string[];
}

/** The rows of the table under "## Settings". */
function settingsTable(): SettingsRow[] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('\n## Settings\n'));
  const body = section.slice(0, section.indexOf('\n## ', 1));
  return body
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      // Cells are separated by pipes that are not escaped (`\|` inside a pattern is a literal pipe).
      const [names = '', defaults = ''] = line.slice(1).split(/(?<!\\)\|/);
      return {
        names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
        defaults: defaults.trim().split(/, | \/ /),
      };
    });
}

/** How the README writes a default: as the value is typed in the environment, a pattern's pipes escaped. */
function written(value: unknown): string {
  const text = value instanceof RegExp ? value.source : String(value);
  return `\`${text.replaceAll('|', '\\|')}\``;
}

function isDefaulted(name: string): name is DefaultedSetting {
  return Object.hasOwn(SETTING_DEFAULTS, name);
}

describe("README's settings table", () => {
  const rows = settingsTable();

  it('should list exactly the settings the gateway reads', () => {
    const listed = rows.flatMap((row) => row.names);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it.each(Object.keys(SETTING_DEFAULTS))('should give the default of %s', (name) => {
    const row = rows.find((candidate) => candidate.names.includes(name));
    expect(row, `${name} is not in the table`).toBeDefined();
    if (row === undefined || !isDefaulted(name)) return;
    // One default per setting of the row, in the same order.
    expect(row.defaults).toHaveLength(row.names.length);
    const cell = row.defaults[row.names.indexOf(name)] ?? '';
    expect(cell.startsWith(written(SETTING_DEFAULTS[name])), `${name}: "${cell}"`).toBe(true);
  });
});
