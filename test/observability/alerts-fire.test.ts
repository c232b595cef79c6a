/**
 * The shipped rules (`deploy/prometheus/gateway-rules.yaml`) in a real Prometheus, scraping two real
 * replicas every second while users read through them: an upstream that stops answering (it hangs) pages
 * within five minutes of users feeling it, through the alert on requests failing for a cause not theirs (in
 * the first runs at 130 s; the error and latency objectives' fast burns followed at about 250 s); nothing
 * pages while all is well. (The breaker alert's flapping shape is
 * the promtool test's: with one user reading here, the breaker did not open.) Debian's `prometheus` is
 * installed when missing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port.ts';
import { childGroupOptions, recordChild } from '../../support/child-registry.ts';
import { ensureDebianPackage } from '../support/debian-package.ts';
import { useEmulator } from '../support/emulator-fixture.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { LOAN_TYPES, loginDemo, postGraphql } from '../support/post-graphql.ts';

const RULES = resolve('deploy/prometheus/gateway-rules.yaml');
/** Users feel it from the fault on; the alerts must fire within this. */
const PAGE_WITHIN_MILLIS = 5 * 60_000;

interface Alert {
  labels: { alertname: string };
  state: 'pending' | 'firing';
}

const { emulator } = useEmulator();
const replicas: TestGateway[] = [];
let prometheus: ReturnType<typeof spawn> | undefined;
let prometheusUrl = '';
let dir = '';
let skipped: string | undefined;

beforeAll(async () => {
  const installed = await ensureDebianPackage({ binary: 'prometheus', packageName: 'prometheus' });
  if (!installed.ok) {
    skipped = 'prometheus could not be installed';
    return;
  }
  // Two sources suffice to open a breaker here: one test user per replica.
  const env = { UPSTREAM_BREAKER_MIN_SOURCES: '1', UPSTREAM_CALL_TIMEOUT_MS: '2000' };
  for (let i = 0; i < 2; i++) replicas.push(await startGateway({ upstreamUrl: emulator.url, env }));
  dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  const targets = replicas.map((replica) => `'${new URL(replica.baseUrl).host}'`).join(', ');
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ['${RULES}']`,
      'scrape_configs:',
      `  - { job_name: gateway, static_configs: [{ targets: [${targets}] }] }`,
    ].join('\n'),
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${String(port)}`;
  prometheus = recordChild(
    spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${String(port)}`,
      ],
      { ...childGroupOptions(), stdio: 'ignore' },
    ),
  );
  // Ready once its TSDB is open and the rules are loaded.
  const readyBy = Date.now() + 120_000;
  while ((await fetch(`${prometheusUrl}/-/ready`).catch(() => undefined))?.status !== 200) {
    if (Date.now() > readyBy) throw new Error('prometheus did not get ready within 120 s');
    await new Promise((done) => setTimeout(done, 250));
  }
});

afterAll(async () => {
  prometheus?.kill('SIGKILL');
  for (const replica of replicas) await replica.close();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** The alerts Prometheus holds now, firing or pending. */
async function alerts(): Promise<Alert[]> {
  const answer = (await (await fetch(`${prometheusUrl}/api/v1/alerts`)).json()) as {
    data: { alerts: Alert[] };
  };
  return answer.data.alerts;
}

const firing = async (): Promise<string[]> =>
  [
    ...new Set((await alerts()).filter((alert) => alert.state === 'firing').map((a) => a.labels.alertname)),
  ].sort();

describe('the shipped rules in a real Prometheus', () => {
  // The quiet stretch, then up to the five minutes the alerts have: beyond the suite's default limit.
  it(
    'should page on a hung upstream within five minutes, and not before',
    { timeout: 600_000 },
    async (context) => {
      if (skipped !== undefined) return context.skip(skipped);
      const tokens = await Promise.all(replicas.map((replica) => loginDemo(replica.graphqlUrl)));
      let reading = true;
      // Users reading through both replicas the whole time: four at each, one request after another each.
      const users = [...replicas, ...replicas, ...replicas, ...replicas].map(async (replica, i) => {
        const token = tokens[i % replicas.length] ?? '';
        while (reading) {
          await postGraphql(replica.graphqlUrl, LOAN_TYPES, {}, { authorization: `Bearer ${token}` });
          await new Promise((done) => setTimeout(done, 50));
        }
      });
      try {
        // A quiet stretch first: every series scraped, nothing paging.
        await new Promise((done) => setTimeout(done, 20_000));
        expect(await firing()).toEqual([]);

        emulator.setFaults({ every: 1, mode: 'hang' });
        const faultAt = Date.now();
        await expect
          .poll(
            async () => {
              const now = await firing();
              process.stdout.write(
                `${String(Math.round((Date.now() - faultAt) / 1000))} s: ${now.join(', ')}\n`,
              );
              return now;
            },
            { timeout: PAGE_WITHIN_MILLIS, interval: 5_000 },
          )
          .toEqual(expect.arrayContaining(['GatewayRequestsFailing']));
        expect(Date.now() - faultAt).toBeLessThan(PAGE_WITHIN_MILLIS);
      } finally {
        emulator.setFaults(undefined);
        reading = false;
        await Promise.all(users);
      }
    },
  );
});
