/**
 * The README's curl walk-through, run as written (only the address changed): it logs in and reads, and a
 * failed login says so on stderr instead of silently putting an error into `TOKEN`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';

/** The README's shell block that logs in through the gateway. */
const snippet = [...readFileSync('README.md', 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
  .map((m) => m[1] ?? '')
  .find((block) => block.includes('4000/graphql') && block.includes('TOKEN='));

function runShell(script: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('bash', ['-c', script], (_error, stdout, stderr) => {
      done({ stdout, stderr });
    });
  });
}

const h = useHarness();

describe("the README's curl login", () => {
  const here = () => (snippet ?? '').replaceAll('http://127.0.0.1:4000/graphql', h.graphqlUrl);

  it('should log in and read loan types', async () => {
    const { stdout, stderr } = await runShell(here());
    expect(stderr).toBe('');
    expect(stdout).toContain('"totalCount":30');
  });

  it('should say "login failed" with the answer when the login fails', async () => {
    const { stderr } = await runShell(here().replace('demo-password', 'wrong-password'));
    expect(stderr).toMatch(/^login failed: \{"errors":\[\{"message":/);
    expect(stderr).toContain('UNAUTHENTICATED');
  });
});
