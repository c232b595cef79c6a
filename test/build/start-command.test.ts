/**
 * The bench starts P4 as `npm start` does, and the container image starts the gateway the same way: what
 * the benchmark measures (memory above all) is what a deployment gets.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parseNodeCommand,
  PRODUCTION_PROCESS_ENV,
  startCommandNodeOptions,
} from '../../support/start-command.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

function dockerfileCommand(): string[] {
  const line = readFileSync(`${ROOT}Dockerfile`, 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith('CMD ['));
  if (line === undefined) throw new Error('the Dockerfile has no exec-form CMD');
  return JSON.parse(line.slice('CMD '.length)) as string[];
}

describe('start command', () => {
  it('should split a node command line into its options and script', () => {
    expect(parseNodeCommand('node --max-semi-space-size=16  --x src/main.ts')).toEqual({
      nodeOptions: ['--max-semi-space-size=16', '--x'],
      script: 'src/main.ts',
    });
    expect(parseNodeCommand('node src/main.ts')).toEqual({ nodeOptions: [], script: 'src/main.ts' });
  });

  it.each(['tsx src/main.ts', 'node', 'node --inspect'])('should refuse %j', (command) => {
    expect(() => parseNodeCommand(command)).toThrow(/expected "node/);
  });

  it('should start the container with the Node options of npm start, on the bundle npm start runs in production', () => {
    const [program, ...rest] = dockerfileCommand();
    const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      scripts: { start: string };
    };
    expect(program).toBe('node');
    expect(rest).toEqual([...startCommandNodeOptions(`${ROOT}package.json`), 'dist/main.js']);
    // scripts/start.js runs dist/main.js in production and src/main.ts otherwise (test/build/bundle.test.ts).
    expect(parseNodeCommand(manifest.scripts.start).script).toBe('scripts/start.js');
  });

  it('should give the container the process environment the bench gives P4', () => {
    const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
    for (const [name, value] of Object.entries(PRODUCTION_PROCESS_ENV)) {
      expect(dockerfile).toMatch(new RegExp(`^ENV (?:.*\\\\\\n)*?\\s*${name}=${value}\\b`, 'm'));
    }
  });
});
