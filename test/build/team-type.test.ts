/**
 * A team adds its own type to schema/objects/, as the README says, and everything stays green. In a copy of
 * the repository (node_modules linked), with a type that has a reference to a demo type (`Customer`), a
 * `Float` and a `Boolean`: `check:codegen` fails and says to run `npm run codegen`; after it, the drift
 * check, both type checks and the whole unit suite (`npm run test:unit`, every file, none chosen) pass,
 * and the new type has typed filters.
 *
 * Its own step of `npm test` (`npm run test:team-type`, after `test:unit`): the copy's suite is a second
 * whole suite, run after the first rather than beside it on the same cores. The copy runs with
 * `vitest.config.ts`, which leaves this file out: vitest never recurses into itself.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Top-level entries that are not the project's source: dependencies, history, outputs. */
const LEFT_OUT = new Set(['node_modules', '.git', '.ci', 'dist', 'test-results']);

/** The copy's whole suite: generous, as the machine may be busy; CI's run allows 90 minutes in all. */
const SUITE_BUDGET_MILLIS = 45 * 60_000;

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
/** The process groups of the runs under way: ended after the tests, whatever happened to them. */
const running = new Set<number | undefined>();

/**
 * Runs a Node script of the copy; resolves with its exit code and output, never rejects. It runs in a process
 * group of its own, ended once it exits: a server a failed test of the copy's suite left behind (a worker
 * that crashed before its `afterAll`) does not outlive the run.
 */
function run(args: string[], timeout = 240_000): Promise<{ code: number; output: string }> {
  // The inner vitest must not take this run's worker settings for its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: copy, env, detached: true, stdio: 'pipe' });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      endGroup(child.pid);
    }, timeout);
    running.add(child.pid);
    // On exit, not close: a process left in the group may hold the pipes open until it is ended.
    child.on('exit', () => {
      clearTimeout(timer);
      endGroup(child.pid);
      running.delete(child.pid);
    });
    child.on('close', (code) => {
      resolve({ code: code ?? 1, output });
    });
  });
}

/** Ends every process left in the group `pid` leads; none left is the usual case. */
function endGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty.
  }
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
  for (const pid of running) endGroup(pid);
  rmSync(copy, { recursive: true, force: true });
});

describe('a team adds a type to schema/objects/', () => {
  it('should be told by check:codegen to run npm run codegen', async () => {
    const { code, output } = await run(['scripts/check-codegen.ts']);
    expect(code).not.toBe(0);
    expect(output).toContain('src/generated/resolvers-types.ts');
    expect(output).toContain('run `npm run codegen`');
  });

  it(
    'should be green after npm run codegen: drift check, type checks and the whole unit suite',
    async () => {
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

      // `npm run test:unit` of the copy, as its package.json says, with the copy's own vitest.config.ts.
      const tests = await run(['node_modules/vitest/vitest.mjs', 'run'], SUITE_BUDGET_MILLIS);
      const output = stripVTControlCharacters(tests.output);
      expect(tests.code, failuresOf(output)).toBe(0);
      expect(output).toMatch(new RegExp(`Test Files +${String(countTestFiles())} passed`));
    },
    SUITE_BUDGET_MILLIS + 300_000,
  );
});

/** The number of test files the copy's suite holds: every file, this one left out. */
function countTestFiles(): number {
  const found = (dir: string): string[] =>
    readdirSync(join(copy, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  return found('test').length - 1 + found('bench/test').length + found('scripts/test').length;
}

/** The failed tests' lines of a vitest output, for the assertion's message (the whole output is long). */
function failuresOf(output: string): string {
  const lines = output.split('\n').filter((line) => /FAIL|✗|×|Error|Test Files|Tests /.test(line));
  return lines.slice(0, 200).join('\n');
}
