/**
 * Starts the independent upstream: a JDK-only Java service written from the upstream owners' interface
 * document alone (`ObjectDataService.java`), compiled with `javac` into a temp dir and run on a free loopback
 * port. Its behaviours where the document is silent are named quirks (see `ALL_QUIRKS` in the Java source);
 * `quirks: ['all']` switches every one on, `without` takes some off again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How to start it. */
export interface IndependentUpstreamOptions {
  /** Quirk names, or `all`. Default: none (the document read plainly). */
  quirks?: readonly string[];
  /** Quirks taken off again after `quirks`. */
  without?: readonly string[];
  /** How far the secondary lags the primary under `replica-lag`, in milliseconds. Default 400. */
  lagMillis?: number;
}

/** A running independent upstream. */
export interface RunningIndependentUpstream {
  /** `http://127.0.0.1:<port>`: every base address of the document (api, base, studio, server) at once. */
  url: string;
  /** The quirks it runs with, as it reported them. */
  quirks: string[];
  stop(): Promise<void>;
}

const SOURCE_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Compiles the Java sources once per call into a fresh temp dir; returns the class path. */
function compile(): string {
  const out = mkdtempSync(join(tmpdir(), 'independent-upstream-'));
  const sources = readdirSync(SOURCE_DIR)
    .filter((name) => name.endsWith('.java'))
    .map((name) => join(SOURCE_DIR, name));
  // Generous: javac takes seconds, and far longer on a machine loaded beyond its cores.
  const run = spawnSync('javac', ['-d', out, ...sources], { encoding: 'utf8', timeout: 240_000 });
  if (run.status !== 0) throw new Error(`javac failed: ${run.stderr}`);
  return out;
}

/** Starts the upstream and resolves once it listens. */
export async function startIndependentUpstream(
  options: IndependentUpstreamOptions = {},
): Promise<RunningIndependentUpstream> {
  const classPath = compile();
  const args = ['-cp', classPath, 'ObjectDataService', '--port=0'];
  if (options.quirks?.length) args.push(`--quirks=${options.quirks.join(',')}`);
  if (options.without?.length) args.push(`--without=${options.without.join(',')}`);
  if (options.lagMillis !== undefined) args.push(`--lag-ms=${String(options.lagMillis)}`);
  const child: ChildProcess = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const started = await new Promise<{ port: number; quirks: string[] }>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      reject(new Error(`the upstream did not start: ${stderr}`));
    }, 120_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk;
      const port = /LISTENING (\d+)/.exec(stdout);
      const quirks = /QUIRKS ([^\n]*)\n/.exec(stdout);
      if (port && quirks) {
        clearTimeout(timer);
        resolve({ port: Number(port[1]), quirks: quirks[1] ? quirks[1].split(',') : [] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the upstream exited (${String(code)}): ${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${String(started.port)}`,
    quirks: started.quirks,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(classPath, { recursive: true, force: true });
    },
  };
}
