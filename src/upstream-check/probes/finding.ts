/**
 * What `npm run upstream:check` reports: one finding per question of docs/design.md's gap table, each with
 * a verdict, what was seen, and the settings it determined.
 */

/**
 * - `as-assumed`: the upstream does what the gateway's current settings assume;
 * - `differs`: it does something else that a setting covers (the finding names it);
 * - `cannot-tell`: the check could not decide (too few records, writes not allowed, not probed by design);
 * - `cannot-serve`: it does something the gateway cannot work with, whatever its settings.
 */
export type Verdict = 'as-assumed' | 'differs' | 'cannot-tell' | 'cannot-serve';

/** One answer of the check. */
export interface Finding {
  /** The question, as the report's table names it (`pageStart base`). */
  topic: string;
  verdict: Verdict;
  /** What was seen, for a person; never a secret. */
  detail: string;
  /**
   * Settings this finding determined, by environment variable: the current value when `as-assumed`, the
   * value to set when `differs`.
   */
  settings?: Record<string, string>;
  /**
   * A row about one declared type the gateway serves: the check exits 0 only when every such row was
   * verified (`cannot-tell` here is {@link EXIT}`.unverified`, never "can work").
   */
  perType?: boolean;
}

/** A finding that the check could not settle `topic`, and why (`detail`). */
export function cannotTell(topic: string, detail: string): Finding {
  return { topic, verdict: 'cannot-tell', detail };
}

/** The exit codes of the command (README, "Pointing it at your upstream"). */
export const EXIT = {
  /** The gateway can work with this upstream with the printed settings. */
  works: 0,
  /** At least one finding is `cannot-serve`. */
  cannotServe: 1,
  /**
   * The check itself could not run: bad usage or settings, an unreachable upstream, bad credentials, an
   * `--object-name` the upstream does not know, or (without one) no type of `schema/objects/` it could read.
   */
  couldNotRun: 2,
  /**
   * Nothing found it cannot serve, but a row about a declared type could not be verified (a field no record
   * holds a value for, a type it could not read): its advice for that type is unknown.
   */
  unverified: 3,
} as const;

/** The whole report, as `--json` writes it. */
export interface CheckReport {
  checkedAt: string;
  upstream: { apiUrl: string; baseUrl: string; studioUrl: string; serverUrl: string };
  objectName: string | undefined;
  writesAllowed: boolean;
  writeObjectName: string | undefined;
  /** Requests sent to the upstream. */
  requests: number;
  findings: Finding[];
  /** Every setting determined, merged in the order found. */
  settings: Record<string, string>;
  exitCode: number;
}

/** The check could not run: printed as one line, exit 2. Never holds a secret. */
export class CheckCannotRun extends Error {
  override readonly name = 'CheckCannotRun';
}

/** Merges the settings of `findings` that determined one (later findings win). */
export function collectSettings(findings: readonly Finding[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const finding of findings) {
    if (finding.verdict !== 'as-assumed' && finding.verdict !== 'differs') continue;
    Object.assign(settings, finding.settings ?? {});
  }
  return settings;
}

/** The exit code of a finished check. */
export function exitCodeOf(findings: readonly Finding[]): number {
  if (findings.some((f) => f.verdict === 'cannot-serve')) return EXIT.cannotServe;
  return findings.some((f) => f.perType === true && f.verdict === 'cannot-tell')
    ? EXIT.unverified
    : EXIT.works;
}
