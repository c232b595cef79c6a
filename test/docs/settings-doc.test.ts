/**
 * The settings table (`docs/settings.md`) against the settings' one description (`src/config/env-schema.ts`): it lists
 * exactly the settings the schema reads, every fixed default as the schema gives it (`SETTING_DEFAULTS` is
 * read from the schema), and the derived defaults as `loadConfig` derives them; every setting has its doc
 * line in the schema. So neither can drift from the other.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS, type DefaultedSetting } from '../../src/config/defaults.ts';
import { envSchema, EVERY_SETTING } from '../../src/config/env-schema.ts';
import { loadConfig } from '../../src/config/load-config.ts';

/** One row of the table: its settings, and the default cell cut into one part per setting when it can be. */
interface SettingsRow {
  names: string[];
  defaults: string[];
  /** The default cell whole. */
  cell: string;
}

/** The rows of the table of `docs/settings.md`. */
function settingsTable(): SettingsRow[] {
  return readFileSync('docs/settings.md', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      // Cells are separated by pipes that are not escaped (`\|` inside a pattern is a literal pipe).
      const [names = '', defaults = ''] = line.slice(1).split(/(?<!\\)\|/);
      return {
        names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
        defaults: defaults.trim().split(/, | \/ /),
        cell: defaults.trim(),
      };
    });
}

/** How the table writes a default: as the value is typed in the environment, a pattern's pipes escaped. */
function written(value: unknown): string {
  const text = value instanceof RegExp ? value.source : String(value);
  return `\`${text.replaceAll('|', '\\|')}\``;
}

function isDefaulted(name: string): name is DefaultedSetting {
  return Object.hasOwn(SETTING_DEFAULTS, name);
}

describe('the settings table of docs/settings.md', () => {
  const rows = settingsTable();

  it('should list exactly the settings the gateway reads', () => {
    const listed = rows.flatMap((row) => row.names);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('should list them in the order `npm run config` prints them (the order src/config/ declares them)', () => {
    expect(rows.flatMap((row) => row.names)).toEqual(EVERY_SETTING.map((s) => s.env));
  });

  /** The default cell of one setting. */
  function cellOf(name: string): string {
    const row = rows.find((candidate) => candidate.names.includes(name));
    expect(row, `${name} is not in the table`).toBeDefined();
    // One default per setting of the row, in the same order.
    expect(row?.defaults).toHaveLength(row?.names.length ?? 0);
    return row?.defaults[row.names.indexOf(name)] ?? '';
  }

  it.each(Object.keys(SETTING_DEFAULTS))('should give the default of %s', (name) => {
    const cell = cellOf(name);
    if (!isDefaulted(name)) return;
    const value: unknown = SETTING_DEFAULTS[name];
    if (Array.isArray(value) && value.length === 0) {
      // An empty list is written in words ("none", "any well-formed code"), never as a value.
      expect(cell.startsWith('`'), `${name}: "${cell}"`).toBe(false);
    } else {
      expect(cell.startsWith(written(value)), `${name}: "${cell}"`).toBe(true);
    }
  });

  it('should give the derived defaults as loading derives them', () => {
    const development = loadConfig({});
    const production = loadConfig({
      NODE_ENV: 'production',
      UPSTREAM: 'emulator',
      SESSION_SECRET: 's'.repeat(32),
    });
    const share = String(development.resilience.maxConcurrentCallsPerSession);
    const wholeCell = (name: string): string | undefined =>
      rows.find((row) => row.names.includes(name))?.cell;
    expect(cellOf('UPSTREAM_MAX_CONCURRENT_PER_SESSION')).toBe(
      `a quarter of \`UPSTREAM_MAX_CONCURRENT\` (\`${share}\`)`,
    );
    expect(wholeCell('LOG_REQUESTS')).toBe(
      `${written(production.logRequests)} in production, else ${written(development.logRequests)}`,
    );
  });

  it.each(Object.entries(envSchema.shape))(
    'should describe %s in one doc line in the schema',
    (_, schema) => {
      expect(schema.description ?? '').toMatch(/^\S.*\.$/);
    },
  );
});
