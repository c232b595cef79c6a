/**
 * `/metrics` as Prometheus' own linter reads it: Debian's `promtool check metrics` (installed from the
 * `prometheus` package when missing, as the browser test installs Chromium) must accept a live gateway's
 * exposition after ordinary traffic, failed requests and refusals, so every family and label set the
 * traffic creates is in the text it checks.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useDebianPackage } from '../support/use-debian-package.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES, codesOf, postGraphql } from '../support/post-graphql.ts';

/** Runs `promtool check metrics` on `text`: its exit code and what it printed. */
function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, output });
    });
    child.stdin.end(text);
  });
}

const h = useHarness();

useDebianPackage('promtool', 'prometheus');

describe('promtool check metrics', () => {
  it('should accept /metrics after successful, failed and refused requests', async () => {
    const auth = { authorization: `Bearer ${await h.login()}` };
    expect(codesOf(await postGraphql(h.graphqlUrl, LOAN_TYPES, {}, auth))).toEqual([]);
    expect(codesOf(await postGraphql(h.graphqlUrl, LOAN_TYPES))).toEqual(['UNAUTHENTICATED']);
    expect(codesOf(await postGraphql(h.graphqlUrl, '{ me { nope } }'))).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
    ]);
    const wrongPassword = await postGraphql(
      h.graphqlUrl,
      'mutation { login(username: "demo", password: "wrong") { token } }',
    );
    expect(codesOf(wrongPassword)).toEqual(['UNAUTHENTICATED']);

    const response = await fetch(`${h.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    // The traffic above is in what promtool reads.
    expect(text).toContain(
      'gateway_graphql_operations_total{operation="LoanTypes",type="query",outcome="ok",blame="none"}',
    );
    expect(text).toContain('gateway_upstream_calls_total{operation="getAll",outcome="ok",blame="none"}');
    // The by-type gauges stay; their `_total` twins (gauges misnamed as counters) are gone.
    expect(text).toContain('# TYPE nodejs_active_handles gauge');
    expect(text).not.toMatch(/^# TYPE \S+_total (?!counter)/m);

    const { code, output } = await promtoolCheck(text);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('should name every label value of the login limiter in its help text', async () => {
    const text = await (await fetch(`${h.baseUrl}/metrics`)).text();
    const help = /^# HELP gateway_login_blocks_total (.*)$/m.exec(text)?.[1] ?? '';
    for (const limit of ['device', 'user_ip', 'user', 'ip'])
      expect(help).toMatch(new RegExp(`\\b${limit}\\b`));
  });
});
