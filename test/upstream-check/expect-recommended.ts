/**
 * What the check's dialect tests hold a run to when the upstream differs from the settings it was given:
 * the run ends well (exit 0), its finding on the topic is `differs`, and its `--env-out` recommends the
 * setting that fits.
 */
import { expect } from 'vitest';
import { verdictOf, type CheckRun } from './check-command.ts';

export function expectRecommended(run: CheckRun, topic: string, setting: string, value: string): void {
  expect(run.code).toBe(0);
  expect(verdictOf(run, topic)).toBe('differs');
  expect(run.env[setting]).toBe(value);
}
