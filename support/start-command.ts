/**
 * How production starts the gateway, read from `npm start` (package.json `scripts.start`): the bench starts
 * P4 with the same Node options, so what it measures (CPU, memory, latency) is what a deployment gets.
 * The Dockerfile's `CMD` carries the same options; a test keeps the two in step.
 */
import { readFileSync } from 'node:fs';

/**
 * The environment the container image adds for the process itself (Dockerfile `ENV`, a test checks it):
 * one malloc arena, so freed memory of V8's helper threads is reused instead of kept per thread.
 */
export const PRODUCTION_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };

/** The parts of a `node [options] script` command line. */
export interface NodeCommand {
  nodeOptions: string[];
  script: string;
}

/**
 * Splits `node --a=1 --b src/main.ts` into its options and script.
 *
 * @throws Error when the command does not start with `node` or has no script
 */
export function parseNodeCommand(command: string): NodeCommand {
  const [program, ...rest] = command.trim().split(/\s+/);
  const script = rest.at(-1);
  if (program !== 'node' || script === undefined || script.startsWith('-')) {
    throw new Error(`expected "node [options] <script>", got "${command}"`);
  }
  return { nodeOptions: rest.slice(0, -1), script };
}

/** The Node options of `npm start`, from the package.json at `packageJsonPath`. */
export function startCommandNodeOptions(packageJsonPath: string): string[] {
  const manifest: unknown = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  const scripts =
    typeof manifest === 'object' && manifest !== null
      ? (manifest as { scripts?: unknown }).scripts
      : undefined;
  const start =
    typeof scripts === 'object' && scripts !== null ? (scripts as { start?: unknown }).start : undefined;
  if (typeof start !== 'string') throw new Error(`${packageJsonPath} has no scripts.start`);
  return parseNodeCommand(start).nodeOptions;
}
