/**
 * Runs the single-file Java program beside this module (`JavaPairs.java`) over pairs (pattern × text, or
 * charset mode × text), for the tests that check the gateway's patterns and charsets against the real JVM.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { useDebianPackage } from '../use-debian-package.ts';

/** Installs Debian's JDK before the calling file's tests when `java` is missing, failing them where it cannot. */
export function useJava(): void {
  useDebianPackage('java', 'openjdk-17-jdk-headless');
}

/** UTF-16 units as 4-digit hex: lone surrogates and line breaks survive the trip to Java. */
const hex = (text: string) =>
  Array.from({ length: text.length }, (_, i) => text.charCodeAt(i).toString(16).padStart(4, '0')).join('');

/** What `JavaPairs.java` can say of a pair: see its head comment. */
export type JavaVerdict = 'matches' | 'find' | 'case' | 'charsets';

/** The output line `JavaPairs.java` writes under `verdict` for each `[pattern, text]` pair, in order. */
export function javaLines(verdict: JavaVerdict, pairs: readonly (readonly [string, string])[]): string[] {
  const source = fileURLToPath(new URL('JavaPairs.java', import.meta.url));
  const input = pairs.map(([pattern, text]) => `${hex(pattern)}\t${hex(text)}\n`).join('');
  // Generous: compiling the source takes seconds, and minutes on a machine loaded far beyond its cores.
  const run = spawnSync('java', [source, verdict], { input, encoding: 'utf8', timeout: 240_000 });
  if (run.status !== 0) throw new Error(`java failed: ${run.stderr}`);
  return run.stdout.trim().split('\n');
}
