/**
 * What ships for on-call (`deploy/prometheus/`, `deploy/grafana/`): Prometheus' own `promtool` accepts the
 * rules and passes their unit tests (Debian's `prometheus` package is installed when `promtool` is
 * missing), every alert has a unit test and a runbook entry, and every metric the rules and the dashboard
 * read is one the real gateway writes on `/metrics` (or one the rules record).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useDebianPackage } from '../support/use-debian-package.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES, codesOf, postGraphql } from '../support/post-graphql.ts';
import { quietRedisReadings } from '../support/quiet-redis-readings.ts';

const RULES_DIR = 'deploy/prometheus';
const RULES = `${RULES_DIR}/gateway-rules.yaml`;
const RULE_TESTS = `${RULES_DIR}/gateway-rules.test.yaml`;
const DASHBOARD = 'deploy/grafana/gateway-dashboard.json';

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
}
interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}
interface RuleTests {
  tests: { alert_rule_test?: { alertname: string }[] }[];
}

const rules = (parse(readFileSync(RULES, 'utf8')) as RuleFile).groups.flatMap((group) => group.rules);

/** Runs promtool in the rules' folder: its exit code and what it printed. */
async function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('promtool', args, { cwd: RULES_DIR });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** Every PromQL expression of the dashboard's panels, variables and annotations (deploys, restarts). */
function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
    templating: { list: { query?: unknown }[] };
    annotations: { list: { expr?: string }[] };
  };
  const panels = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  const variables = dashboard.templating.list.flatMap((variable) =>
    typeof variable.query === 'string' && variable.query.startsWith('label_values(') ? [variable.query] : [],
  );
  const annotations = dashboard.annotations.list.flatMap((annotation) =>
    annotation.expr === undefined ? [] : [annotation.expr],
  );
  return [...panels, ...variables, ...annotations];
}

/**
 * The metric names `expr` reads: its identifiers once label matchers, ranges and `by`/`on`/`ignoring` lists
 * are cut out, less PromQL's functions (a name before `(`), operators and keywords.
 */
function metricNames(expr: string): string[] {
  const withoutLists = expr
    .replace(/label_values\(([^,)]*),\s*\w+\)/g, 'label_values($1)') // Grafana's: its second argument is a label
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\boffset\s+\d+[smhdwy]/g, '') // offsets
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\b\s*(?:\([^)]*\))?/g, '');
  const names = new Set<string>();
  for (const match of withoutLists.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const next = withoutLists.slice(match.index + name.length).trimStart()[0];
    if (next === '(') continue; // a function
    if (/^(?:and|or|unless|offset|bool|inf|nan)$/i.test(name)) continue;
    names.add(name);
  }
  return [...names].filter((name) => !/^\d/.test(name));
}

useDebianPackage('promtool', 'prometheus');

describe('the Prometheus rules', () => {
  it('should pass promtool check rules', async () => {
    const { code, output } = await promtool('check', 'rules', 'gateway-rules.yaml');
    expect(output).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  it('should pass their unit tests (promtool test rules)', async () => {
    const { code, output } = await promtool('test', 'rules', 'gateway-rules.test.yaml');
    expect(output).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  it('should unit-test every alert, and give each a runbook entry in deploy/README.md', () => {
    const alerts = rules.flatMap((rule) => (rule.alert === undefined ? [] : [rule.alert]));
    const tests = parse(readFileSync(RULE_TESTS, 'utf8')) as RuleTests;
    const tested = new Set(
      tests.tests.flatMap((test) => (test.alert_rule_test ?? []).map((t) => t.alertname)),
    );
    const runbook = readFileSync('deploy/README.md', 'utf8');
    for (const alert of alerts) {
      expect({ alert, tested: tested.has(alert) }).toEqual({ alert, tested: true });
      expect(runbook).toContain(`### ${alert}`);
    }
    expect(alerts).toEqual(
      expect.arrayContaining([
        'GatewayUpstreamUnhealthy',
        'GatewayUpstreamBreakerOpen',
        'GatewayLatencyBudgetBurnFast',
        'GatewayRedisUnreachable',
        'GatewaySaturationNearCap',
        'GatewayReplicaDown',
      ]),
    );
  });
});

describe('the metric names the rules and the dashboard read', () => {
  const h = useHarness();

  it('should all be written by the gateway (or recorded by the rules)', async () => {
    // Traffic of every kind the families are made by: a login, a read through the loaders, a failure.
    const token = await h.login();
    expect(
      codesOf(await postGraphql(h.graphqlUrl, LOAN_TYPES, {}, { authorization: `Bearer ${token}` })),
    ).toEqual([]);
    expect(codesOf(await postGraphql(h.graphqlUrl, '{ me { nope } }'))).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
    ]);
    // `gateway_redis_up` is made only with REDIS_URL, by the Redis guard: as it reports.
    h.gateway.metrics.trackRedis(quietRedisReadings(true));
    const text = await (await fetch(`${h.baseUrl}/metrics`)).text();

    const written = new Set<string>(['up']); // Prometheus' own, per target
    for (const line of text.split('\n')) {
      const typed = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (typed?.[1] !== undefined) {
        written.add(typed[1]);
        // A histogram's samples are its _bucket, _sum and _count series, written or not yet.
        if (typed[2] === 'histogram')
          for (const suffix of ['_bucket', '_sum', '_count']) written.add(typed[1] + suffix);
      } else if (line !== '' && !line.startsWith('#')) {
        written.add(/^[^{ ]+/.exec(line)?.[0] ?? '');
      }
    }
    const recorded = new Set(rules.flatMap((rule) => (rule.record === undefined ? [] : [rule.record])));

    const read = new Set([...rules.map((rule) => rule.expr), ...dashboardExpressions()].flatMap(metricNames));
    // The parser finds the names it must (a guard against reading nothing).
    expect(read).toContain('gateway_upstream_calls_total');
    expect(read).toContain('gateway_graphql_operation_duration_seconds_bucket');
    expect(read).toContain('instance:gateway_saturation:ratio');
    expect(read).toContain('process_start_time_seconds');
    const missing = [...read].filter((name) => !written.has(name) && !recorded.has(name));
    expect(missing).toEqual([]);
  });
});
