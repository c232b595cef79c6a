/**
 * What the check's dialect tests hold a run to when the upstream differs from the settings it was given:
 * the run ends well (exit 0), its finding on the topic is `differs`, its `--env-out` holds `recommended`
 * (`SETTING=value`, as the file writes it), and the finding's detail says why (`because`, where given).
 */
import { expect } from 'vitest';
import { verdictOf, type CheckRun } from './check-command.ts';
import { detailOf } from './check-emulators.ts';

export function expectRecommended(run: CheckRun, topic: string, recommended: string, because?: string): void {
  const [setting = '', value] = recommended.split(/=(.*)/s);
  expect(run.code).toBe(0);
  expect(verdictOf(run, topic)).toBe('differs');
  expect(run.env[setting]).toBe(value);
  if (because !== undefined) expect(detailOf(run, topic)).toContain(because);
}
