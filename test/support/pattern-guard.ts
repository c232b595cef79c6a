/**
 * The pattern guard a user gets by default (`MAX_PATTERN_LENGTH` as `loadConfig` reads it), with a test's
 * own options on top: the guard takes its settings as given, so tests say where theirs come from.
 */
import { loadConfig } from '../../src/config/load-config.ts';
import {
  createPatternGuard,
  type PatternGuard,
  type PatternGuardOptions,
} from '../../src/upstream/pattern-guard/pattern-guard.ts';

const DEFAULT_MAX_LENGTH = loadConfig({}).maxPatternLength;

/** A guard with the default settings, overridden by `options`. */
export function defaultPatternGuard(options: Partial<PatternGuardOptions> = {}): PatternGuard {
  return createPatternGuard({ maxLength: DEFAULT_MAX_LENGTH, ...options });
}
