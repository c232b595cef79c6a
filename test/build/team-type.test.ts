/**
 * A team adds its own type to schema/objects/, as the README says, and everything stays green. In a copy of
 * the repository (node_modules linked), with a type that has a reference, a `Float` and a `Boolean`:
 * `check:codegen` fails and says to run `npm run codegen`; after it, the drift check, both type checks and
 * the tests that read schema/objects/ itself pass, and the new type has typed filters.
 *
 * Which tests: every other test takes its types from its own folder (the harness and the gateway command
 * default `OBJECT_TYPES_DIR` to test/support/fixtures/demo-objects/), so a team's file cannot reach them.
 * The ones below read the shipped folder, or did before they were given a fixture (the three the issue
 * found red): federation's SDL and supergraph, the emulator's settings and served types, the shipped
 * schema's build, and `npm start`, which serves the folder's types on its embedded emulator.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Top-level entries that are not the project's source: dependencies, history, outputs. */
const LEFT_OUT = new Set(['node_modules', '.git', '.ci', 'dist', 'test-results']);

const TESTS_READING_SCHEMA_OBJECTS = [
  'test/federation/subgraph-sdl.test.ts',
  'test/federation/supergraph.test.ts',
  'test/emulator/main.test.ts',
  'test/emulator/object-types.test.ts',
  'test/typed/schema-mistakes.test.ts',
  'test/start/start-command.test.ts',
];

const INVOICE = `"""
An invoice sent to a customer (a team's own type).
"""
type Invoice @dataObject(name: "com.acme.Invoice") {
  id: ID!
  number: String!
  amount: Float
  paid: Boolean
  customer: Customer @ref(field: "customer.id")
}
`;

let copy: string;

/** Runs a Node script of the copy; resolves with its exit code and output, never rejects. */
function run(args: string[]): Promise<{ code: number; output: string }> {
  // The inner vitest must not take this run's worker settings for its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: copy, env, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'team-type-'));
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (source) => !LEFT_OUT.has(source.slice(ROOT.length).split('/')[0] ?? ''),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  writeFileSync(join(copy, 'schema', 'objects', 'invoice.graphql'), INVOICE);
});
afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
});

describe('a team adds a type to schema/objects/', () => {
  it('should be told by check:codegen to run npm run codegen', async () => {
    const { code, output } = await run(['scripts/check-codegen.ts']);
    expect(code).not.toBe(0);
    expect(output).toContain('src/generated/resolvers-types.ts');
    expect(output).toContain('run `npm run codegen`');
  });

  it('should be green after npm run codegen: drift check, type checks and the tests that read the folder', async () => {
    const codegen = await run(['node_modules/@graphql-codegen/cli/cjs/bin.js', '--config', 'codegen.yml']);
    expect(codegen.code, codegen.output).toBe(0);
    const generated = readFileSync(join(copy, 'src', 'generated', 'resolvers-types.ts'), 'utf8');
    expect(generated).toMatch(
      /export type InvoiceWhere = \{[^}]*amount\?: InputMaybe<FloatFilter>;[^}]*customer\?: InputMaybe<RefFilter>;[^}]*paid\?: InputMaybe<BooleanFilter>;/,
    );

    const checks = await Promise.all([
      run(['scripts/check-codegen.ts']),
      run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']),
      run(['node_modules/typescript/bin/tsc', '-p', 'examples/web/tsconfig.json']),
    ]);
    for (const check of checks) expect(check.code, check.output).toBe(0);

    const tests = await run(['node_modules/vitest/vitest.mjs', 'run', ...TESTS_READING_SCHEMA_OBJECTS]);
    expect(tests.code, tests.output).toBe(0);
    expect(stripVTControlCharacters(tests.output)).toMatch(
      new RegExp(`Test Files +${TESTS_READING_SCHEMA_OBJECTS.length} passed`),
    );
  }, 300_000);
});
