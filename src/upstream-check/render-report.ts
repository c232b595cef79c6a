/**
 * The report for a person (a table, then the settings block to paste) and for machines (`--env-out`:
 * `KEY=value` lines, as `docker --env-file` and Kubernetes ConfigMaps take them).
 */
import { EXIT, type CheckReport, type Verdict } from './probes/finding.ts';

const VERDICT_WORDS: Record<Verdict, string> = {
  'as-assumed': 'as assumed',
  differs: 'differs',
  'cannot-tell': 'cannot tell',
  'cannot-serve': 'CANNOT SERVE',
};

/** `KEY=value` lines, one per setting determined, in the order found. */
export function renderEnv(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${value}\n`)
    .join('');
}

/** The human-readable report. */
export function renderReport(report: CheckReport): string {
  const rows = report.findings.map((f) => {
    const settings =
      f.verdict === 'differs' && f.settings !== undefined
        ? ` → ${Object.entries(f.settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}`
        : '';
    return [f.topic, VERDICT_WORDS[f.verdict], `${f.detail}${settings}`];
  });
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length), i === 0 ? 5 : 7));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c)).join('  ');
  const out = [
    `upstream:check of ${report.upstream.studioUrl} (${report.requests} requests${report.writesAllowed ? `, writes to ${report.writeObjectName ?? ''}` : ', read-only'})`,
    '',
    line(['topic', 'verdict', 'what the upstream does']),
    line(['-'.repeat(widths[0] ?? 0), '-'.repeat(widths[1] ?? 0), '-'.repeat(22)]),
    ...rows.map(line),
    '',
  ];
  const env = renderEnv(report.settings);
  out.push(
    env === ''
      ? 'No setting determined.'
      : `Settings for this upstream (paste into the gateway's environment):\n\n${env}`,
  );
  out.push(
    report.exitCode === EXIT.works
      ? 'The gateway can work with this upstream with these settings.'
      : report.exitCode === EXIT.cannotServe
        ? 'The gateway CANNOT work with this upstream as it is: see the CANNOT SERVE rows.'
        : report.exitCode === EXIT.unverified
          ? 'Nothing found that the gateway cannot serve, but not every declared type was verified: see the "field kinds" rows that cannot tell.'
          : 'The check could not read one object type: it cannot tell whether the gateway can work with this upstream.',
  );
  return `${out.join('\n')}\n`;
}
