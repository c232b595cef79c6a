/**
 * A copy of the repository with a team's type added to `schema/objects/`, as the README tells a team to do
 * (node_modules linked), and a way to run the copy's own commands in it. The team-type steps of `npm test`
 * and `npm run test:heavy` (`test/build/team-type*.test.ts`) share it.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Top-level entries that are not the project's source: dependencies, history, outputs. */
const LEFT_OUT = new Set(['node_modules', '.git', '.ci', 'dist', 'test-results']);

/** A team's own type: a reference to a demo type (`Customer`), a `Float` and a `Boolean`. */
export const INVOICE = `"""
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

/** What a command of the copy did. */
export interface CopyRun {
  code: number;
  output: string;
}

/** The copy; {@link TeamTypeCopy.remove} ends what still runs in it and deletes it. */
export interface TeamTypeCopy {
  dir: string;
  /** Runs a Node script of the copy; resolves with its exit code and output, never rejects. */
  run(args: string[], timeoutMillis?: number): Promise<CopyRun>;
  remove(): void;
}

/** Copies the repository and adds {@link INVOICE} to the copy's `schema/objects/`. */
export function createTeamTypeCopy(): TeamTypeCopy {
  const dir = mkdtempSync(join(tmpdir(), 'team-type-'));
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (source) => !LEFT_OUT.has(source.slice(ROOT.length).split('/')[0] ?? ''),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'schema', 'objects', 'invoice.graphql'), INVOICE);
  /** The process groups of the runs under way: ended at removal, whatever happened to them. */
  const running = new Set<number | undefined>();

  // Each run is a process group of its own, ended once it exits: a server a failed test of the copy's suite
  // left behind (a worker that crashed before its `afterAll`) does not outlive the run.
  const run = (args: string[], timeoutMillis = 240_000): Promise<CopyRun> => {
    // The inner vitest must not take this run's worker settings for its own.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')),
    );
    return new Promise((resolve) => {
      const child = spawn(process.execPath, args, { cwd: dir, env, detached: true, stdio: 'pipe' });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const timer = setTimeout(() => {
        endGroup(child.pid);
      }, timeoutMillis);
      running.add(child.pid);
      // On exit, not close: a process left in the group may hold the pipes open until it is ended.
      child.on('exit', () => {
        clearTimeout(timer);
        endGroup(child.pid);
        running.delete(child.pid);
      });
      child.on('close', (code) => {
        resolve({ code: code ?? 1, output: stripVTControlCharacters(output) });
      });
    });
  };

  return {
    dir,
    run,
    remove() {
      for (const pid of running) endGroup(pid);
      rmSync(dir, { recursive: true, force: true });
    },
  };
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

/**
 * Runs codegen in the copy, then expects the drift check and both type checks to pass and the team's type
 * to have typed filters.
 */
export async function expectCodegenAndTypeChecks(copy: TeamTypeCopy): Promise<void> {
  const codegen = await copy.run(['node_modules/@graphql-codegen/cli/cjs/bin.js', '--config', 'codegen.yml']);
  expect(codegen.code, codegen.output).toBe(0);
  const generated = readFileSync(join(copy.dir, 'src', 'generated', 'resolvers-types.ts'), 'utf8');
  expect(generated).toMatch(
    /export type InvoiceWhere = \{[^}]*amount\?: InputMaybe<FloatFilter>;[^}]*customer\?: InputMaybe<RefFilter>;[^}]*paid\?: InputMaybe<BooleanFilter>;/,
  );
  const checks = await Promise.all([
    copy.run(['scripts/check-codegen.ts']),
    copy.run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']),
    copy.run(['node_modules/typescript/bin/tsc', '-p', 'examples/web/tsconfig.json']),
  ]);
  for (const check of checks) expect(check.code, check.output).toBe(0);
}

/**
 * Runs vitest in the copy with `args` (a config, files) and expects every one of its `files` test files to
 * pass: none failed, none skipped by a filter that matched less than intended.
 */
export async function expectCopySuitePasses(
  copy: TeamTypeCopy,
  args: string[],
  files: number,
  timeoutMillis: number,
): Promise<void> {
  const tests = await copy.run(['node_modules/vitest/vitest.mjs', 'run', ...args], timeoutMillis);
  expect(tests.code, failuresOf(tests.output)).toBe(0);
  expect(tests.output).toMatch(new RegExp(`Test Files +${String(files)} passed`));
}

/** The failed tests' lines of a vitest output, for the assertion's message (the whole output is long). */
function failuresOf(output: string): string {
  const lines = output.split('\n').filter((line) => /FAIL|✗|×|Error|Test Files|Tests /.test(line));
  return lines.slice(0, 200).join('\n');
}
