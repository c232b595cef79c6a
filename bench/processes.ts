/**
 * Child processes of the bench: each peer, the emulator and the load generator run as their own Node
 * process, on loopback, on ports the OS picked. Output goes to a log file, not a pipe, so a chatty process
 * never blocks and the orchestrator spends no CPU reading it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A started child process and where its output goes. */
export interface BenchProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  /** Set when the process has exited, with its code or signal. */
  exited: string | undefined;
}

/** A port that was free a moment ago (the OS picked it); the child binds it right after. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * Starts `node [nodeOptions] <script>` (the running Node 24) with `env` added to this process's
 * environment.
 */
export function startNodeProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  logDir: string,
  stdio: 'log' | 'pipe' = 'log',
  nodeOptions: readonly string[] = [],
): BenchProcess {
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeOptions, script], {
    env: { ...process.env, ...env },
    stdio: stdio === 'log' ? ['ignore', fd, fd] : ['pipe', 'pipe', fd],
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const started: BenchProcess = { name, child, pid: child.pid, logFile, exited: undefined };
  child.once('exit', (code, signal) => {
    started.exited = signal ?? `code ${String(code)}`;
  });
  return started;
}

/** The last lines a process wrote, to show why it failed. */
export function logTail(process: BenchProcess, lines = 20): string {
  try {
    return readFileSync(process.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Polls `probe` until it resolves true; fails when the process exits or `timeoutMillis` passes. */
export async function waitUntilReady(
  started: BenchProcess,
  probe: () => Promise<boolean>,
  timeoutMillis = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (started.exited !== undefined) {
      throw new Error(`${started.name} exited (${started.exited}) before it was ready:\n${logTail(started)}`);
    }
    if (await probe().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${started.name} was not ready within ${timeoutMillis} ms:\n${logTail(started)}`);
}

/** A probe that is true once `url` answers 2xx. */
export function httpProbe(url: string, init?: RequestInit): () => Promise<boolean> {
  return async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  };
}

/** Stops a process with SIGTERM, then SIGKILL after `graceMillis`. */
export async function stopProcess(started: BenchProcess, graceMillis = 3_000): Promise<void> {
  if (started.exited !== undefined) return;
  const exited = new Promise<void>((resolve) => {
    started.child.once('exit', () => {
      resolve();
    });
  });
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), graceMillis);
  await exited;
  clearTimeout(timer);
}
