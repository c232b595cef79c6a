/**
 * One JVM running `test/support/java/RegexTimer.java` (java.util.regex's `Matcher.matches`, as the upstream's
 * `String.matches`, under a deadline) for the pattern guard's Java-backed tests. Java 11+ runs the single
 * source file directly; cases go over stdin and answers come back over stdout, one line each, base64 fields.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { ensureDebianPackage } from '../debian-package.ts';
import { lateBound } from '../late-bound.ts';
import { childGroupOptions, recordChild } from '../../../support/child-registry.ts';

const SOURCE = fileURLToPath(new URL('./RegexTimer.java', import.meta.url));

/** How one run ended: `timeout` when Java had not finished by the limit. */
export type JavaOutcome = 'match' | 'nomatch' | 'timeout' | 'invalid' | 'overflow';

/** A running JVM. */
export interface JavaRegexTimer {
  /** Runs `pattern` against the whole of `subject`, stopped after `limitMillis` of the matching thread's CPU time. */
  run(
    pattern: string,
    subject: string,
    limitMillis: number,
  ): Promise<{ outcome: JavaOutcome; millis: number }>;
  close(): Promise<void>;
}

const OUTCOMES = new Set<string>(['match', 'nomatch', 'timeout', 'invalid', 'overflow']);
const isOutcome = (value: string | undefined): value is JavaOutcome =>
  value !== undefined && OUTCOMES.has(value);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/**
 * Starts the JVM and waits until it has warmed up (a few seconds: it compiles the source first).
 * `jvmOptions` go before the source: `-Xint` runs the matcher interpreted, whose frames are the largest
 * (the stack-depth worst case, as on an upstream that has just started).
 */
export async function startJavaRegexTimer(jvmOptions: readonly string[] = []): Promise<JavaRegexTimer> {
  const child = recordChild(
    spawn('java', [...jvmOptions, SOURCE], { ...childGroupOptions(), stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const lines = createInterface({ input: child.stdout });
  const waiting = new Map<string, (line: string[]) => void>();
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => {
      reject(new Error(`java exited with ${String(code)}`));
    });
  });
  lines.on('line', (line) => {
    if (line === 'ready') {
      ready();
      return;
    }
    const fields = line.split('\t');
    const resolve = waiting.get(fields[0] ?? '');
    waiting.delete(fields[0] ?? '');
    resolve?.(fields);
  });
  await started;
  let next = 0;
  return {
    async run(pattern, subject, limitMillis) {
      const id = String(next++);
      const answer = new Promise<string[]>((resolve) => waiting.set(id, resolve));
      child.stdin.write(`${id}\t${base64(pattern)}\t${base64(subject)}\t${limitMillis}\n`);
      const [, outcome, micros] = await answer;
      if (!isOutcome(outcome)) throw new Error(`unexpected answer from java: ${String(outcome)}`);
      return { outcome, millis: Number(micros) / 1000 };
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * A Java regex timer for the calling block's tests: installs Debian's JDK first when `java` is missing
 * (failing the block, with the reason, where that is impossible), and stops the JVM after the tests.
 */
export function useJavaRegexTimer(jvmOptions: readonly string[] = []): JavaRegexTimer {
  const [java, setJava] = lateBound<JavaRegexTimer>('the Java regex timer');
  let running: JavaRegexTimer | undefined;
  beforeAll(async () => {
    const installed = await ensureDebianPackage({ binary: 'java', packageName: 'openjdk-17-jdk-headless' });
    if (!installed.ok) throw new Error(installed.reason);
    running = await startJavaRegexTimer(jvmOptions);
    setJava(running);
  }, 900_000);
  afterAll(async () => {
    await running?.close();
  });
  return java;
}
