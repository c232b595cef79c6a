/**
 * The README's example report of `npm run upstream:check` is what the check prints against the upstream
 * it describes (the emulator with `EMULATOR_MATCHES=find EMULATOR_PAGE_START=page1`).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { runUpstreamCheck } from '../upstream-check/check-command.ts';

const section = readFileSync('README.md', 'utf8').split('\n## Pointing it at your upstream\n')[1] ?? '';
const example = /```text\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

let upstream: RunningEmulator;
beforeAll(async () => {
  upstream = await startEmulator({ port: 0, matches: 'find', pageStart: 'page1' });
});
afterAll(async () => {
  await upstream.close();
});

describe("README's example report of npm run upstream:check", () => {
  it('should be lines the check prints against a find / page1 upstream', async () => {
    const run = await runUpstreamCheck({ url: upstream.url }, ['--object-name', 'com.example.Order']);
    expect(run.code).toBe(0);
    // The longest request target depends on the length of the emulator's address (its port).
    const sized = (line: string) => line.replace(/\d+-byte/, 'N-byte');
    const lines = example
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(sized);
    expect(lines.length).toBeGreaterThan(10);
    const printed = run.stdout.split('\n').map(sized);
    for (const line of lines) expect(printed, line).toContain(line);
  });
});
