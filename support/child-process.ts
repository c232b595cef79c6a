/**
 * The one process helper of the tests, the soak and the bench: start a child process, wait until it is
 * ready (an HTTP URL answering 200, e.g. `/healthz`, or any other probe), and stop it cleanly. Readiness is
 * asked of the process, never read from a human banner line, so a reworded log line breaks nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { childGroupOptions, recordChild } from './child-registry.ts';

/** How a child process exited: its code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options of {@link startProcess}. */
export interface StartProcessOptions {
  /** Names the process in errors. */
  name: string;
  /** Default: this Node (under `npm` scripts and `npx`, the pinned Node 24 of node_modules). */
  command?: string;
  args: readonly string[];
  /** Its working directory; default this process's. */
  cwd?: string;
  /** The child's whole environment; default only `PATH`, so that nothing of the caller's leaks in. */
  env?: NodeJS.ProcessEnv;
  /**
   * Append stdout and stderr to this file instead of keeping them in memory: a chatty process never
   * blocks and the parent spends no CPU reading it (the bench).
   */
  logFile?: string;
  /** With `logFile`: pipe stdin and stdout to the parent anyway (the bench's load process talks over them). */
  pipeStdio?: boolean;
}

/** A started child process. */
export interface RunningProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Where its output goes, when it goes to a file. */
  logFile: string | undefined;
  /** Set once it has exited, with its code or signal. */
  exited: string | undefined;
  /** Resolves when it exits. */
  exit: Promise<ProcessExit>;
  /** What it wrote to stdout so far (empty with `logFile`). */
  stdout(): string;
  /** What it wrote to stderr so far (empty with `logFile`). */
  stderr(): string;
  /** The last lines of its stderr (or of its log file), to say why it failed. */
  outputTail(lines?: number): string;
}

/** Starts a child process; see {@link waitUntilReady} and {@link startHttpProcess}. */
export function startProcess(options: StartProcessOptions): RunningProcess {
  const { name, logFile } = options;
  const fd = logFile === undefined ? undefined : openSync(logFile, 'a');
  // Recorded for the test run's end (support/child-registry.ts): a crashed worker leaves no server behind.
  const child = recordChild(
    spawn(options.command ?? process.execPath, options.args, {
      ...childGroupOptions(),
      env: options.env ?? { PATH: process.env.PATH ?? '' },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio:
        fd === undefined
          ? ['ignore', 'pipe', 'pipe']
          : options.pipeStdio === true
            ? ['pipe', 'pipe', fd]
            : ['ignore', fd, fd],
    }),
  );
  if (fd !== undefined) closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  let stdout = '';
  let stderr = '';
  if (fd === undefined) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  }
  const started: RunningProcess = {
    name,
    child,
    pid: child.pid,
    logFile,
    exited: undefined,
    exit: new Promise<ProcessExit>((resolve) => {
      // 'close', not 'exit': by then every byte of its output has been read.
      child.once('close', (code, signal) => {
        started.exited = signal ?? `code ${String(code)}`;
        resolve({ code, signal });
      });
    }),
    stdout: () => stdout,
    stderr: () => stderr,
    outputTail(lines = 20) {
      let text = stderr;
      if (logFile !== undefined) {
        try {
          text = readFileSync(logFile, 'utf8');
        } catch {
          text = '';
        }
      }
      return text.trimEnd().split('\n').slice(-lines).join('\n');
    },
  };
  return started;
}

/**
 * Polls `probe` until it resolves true; fails, with the child's stderr, when it exits or time runs out
 * (default 120 s: generous, since a start that succeeds never waits for it, and a machine loaded far beyond
 * its cores can take a minute to start a gateway).
 */
export async function waitUntilReady(
  started: RunningProcess,
  probe: () => Promise<boolean>,
  timeoutMillis = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (started.exited !== undefined || started.child.exitCode !== null) {
      await started.exit;
      throw new Error(
        `${started.name} exited (${String(started.exited)}) before it was ready:\n${started.outputTail()}`,
      );
    }
    if (await probe().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${started.name} was not ready within ${timeoutMillis} ms:\n${started.outputTail()}`);
}

/** A probe that is true once `url` answers 2xx. */
export function httpProbe(url: string, init?: RequestInit): () => Promise<boolean> {
  return async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  };
}

/** Stops a process with `signal` (SIGTERM), then SIGKILL after `graceMillis`; answers how it exited. */
export async function stopProcess(
  started: RunningProcess,
  graceMillis = 3_000,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<ProcessExit> {
  if (started.exited === undefined) {
    started.child.kill(signal);
    const timer = setTimeout(() => started.child.kill('SIGKILL'), graceMillis);
    await started.exit;
    clearTimeout(timer);
  }
  return started.exit;
}

/** Options of {@link startHttpProcess}. */
export interface StartHttpProcessOptions extends StartProcessOptions {
  /** Answers 200 once the process serves, e.g. `http://127.0.0.1:PORT/healthz`. */
  readyUrl: string;
  /** Default 120 s (see {@link waitUntilReady}). */
  timeoutMillis?: number;
}

/** Starts a child process and waits until `readyUrl` answers 2xx; kills it if it never does. */
export async function startHttpProcess(options: StartHttpProcessOptions): Promise<RunningProcess> {
  const started = startProcess(options);
  try {
    await waitUntilReady(started, httpProbe(options.readyUrl), options.timeoutMillis);
  } catch (error) {
    await stopProcess(started, 0, 'SIGKILL');
    throw error;
  }
  return started;
}
