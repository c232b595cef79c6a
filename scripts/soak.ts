/**
 * `npm run soak [-- --minutes 10 --concurrency 6 --fault-percent 5 --max-old-space-mib N]`: a soak test
 * of the real command.
 *
 * Starts the emulator in this process and the gateway as a child process (`node src/main.ts`), then runs
 * mixed traffic for the given time: reads (pages, single objects), saves and updates, with a share of the
 * upstream calls faulted (the fault mode rotates every 15 s: 500s, resets, garbage, wrong callbacks,
 * truncated bodies, HTML pages, hangs). At the end it clears the faults and reads back every write the
 * gateway acknowledged, then stops the gateway with SIGTERM. It prints requests, errors by code, the
 * gateway's RSS at start and end, and the write check; it exits non-zero when an acknowledged write is
 * missing or wrong, or the gateway did not stop cleanly. Not part of `npm test`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startEmulator, type FaultMode } from '../emulator/index.ts';
import { stopProcess } from '../support/child-process.ts';
import { startGatewayCommand } from '../support/gateway-command.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '6' },
    'fault-percent': { type: 'string', default: '5' },
    // The gateway's V8 old-space cap, as a container's NODE_OPTIONS would set it (default: Node's own).
    'max-old-space-mib': { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const faultPercent = Number(values['fault-percent']);
if (!(minutes > 0) || !(concurrency >= 1) || !(faultPercent >= 0 && faultPercent <= 100)) {
  throw new Error('usage: soak.ts --minutes <n> --concurrency <n> --fault-percent <0-100>');
}

const LOAN = 'com.example.LoanType';
const FAULT_MODES: FaultMode[] = [
  'error500',
  'reset',
  'garbage',
  'wrongCallback',
  'truncated',
  'html',
  'hang',
];
const rssMiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 102.4) / 10;
};

// 1. Emulator (in this process) and gateway (child process, Node 24 of node_modules).
const emulator = await startEmulator({ port: 0 });
const heapCap = values['max-old-space-mib'];
const nodeArgs = heapCap === undefined ? [] : [`--max-old-space-size=${Number(heapCap)}`];
// Its log goes to a file: a long run must not hold it in memory, and a failure can show its tail.
const gatewayLog = join(mkdtempSync(join(tmpdir(), 'soak-')), 'gateway.log');
const gateway = await startGatewayCommand({
  upstreamUrl: emulator.url,
  env: {
    NODE_ENV: 'production',
    SESSION_SECRET: 'soak-test-session-secret-0123456789-abcdef',
  },
  nodeOptions: nodeArgs,
  logFile: gatewayLog,
});
const { pid } = gateway.process;
const { graphqlUrl } = gateway;

// 2. A tiny GraphQL client that counts outcomes.
const errorsByCode = new Map<string, number>();
let requests = 0;
async function gql(query: string, variables: Record<string, unknown>, token?: string) {
  requests += 1;
  try {
    const response = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as {
      data?: Record<string, unknown> | null;
      errors?: { extensions?: { code?: string } }[];
    };
    for (const error of body.errors ?? []) {
      const code = error.extensions?.code ?? 'NO_CODE';
      errorsByCode.set(code, (errorsByCode.get(code) ?? 0) + 1);
    }
    return body;
  } catch (error) {
    const code = `TRANSPORT_${error instanceof Error ? error.name : 'ERROR'}`;
    errorsByCode.set(code, (errorsByCode.get(code) ?? 0) + 1);
    return { data: null, errors: [{ extensions: { code } }] };
  }
}
const LOGIN = 'mutation Login { login(username: "demo", password: "demo-password") { token } }';
const PAGE = `query Page($after: String) { objects(objectName: "${LOAN}", first: 10, after: $after) { totalCount nodes { id } } }`;
const ONE = `query One($id: ID!) { object(objectName: "${LOAN}", id: $id) { id data } }`;
const SAVE = `mutation Save($data: JSONObject!) { saveObject(objectName: "${LOAN}", data: $data) { id } }`;
const UPDATE = `mutation Update($id: ID!, $data: JSONObject!) { updateObject(id: $id, objectName: "${LOAN}", data: $data) { id } }`;

async function login(): Promise<string> {
  for (;;) {
    const answer = await gql(LOGIN, {});
    const token = (answer.data?.login as { token?: string } | undefined)?.token;
    if (token !== undefined) return token;
    await sleep(200);
  }
}

/** Every acknowledged write: the marker it saved, and the `rev` values its content may hold now. */
const written = new Map<string, { marker: string; revs: Set<number> }>();
const ids: string[] = [];
let saveNumber = 0;

async function worker(deadline: number): Promise<void> {
  let token = await login();
  // A worker updates only what it saved, so the updates of one object never race each other.
  const mine: string[] = [];
  while (Date.now() < deadline) {
    const dice = Math.random();
    let answer;
    if (dice < 0.6) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      answer = dice < 0.3 || id === undefined ? await gql(PAGE, {}, token) : await gql(ONE, { id }, token);
    } else if (dice < 0.85 || mine.length === 0) {
      const marker = `soak-${process.pid}-${++saveNumber}`;
      answer = await gql(SAVE, { data: { loanType: marker, description: 'soak', rev: 0 } }, token);
      const id = (answer.data?.saveObject as { id?: string } | undefined)?.id;
      if (id !== undefined) {
        written.set(id, { marker, revs: new Set([0]) });
        ids.push(id);
        mine.push(id);
      }
    } else {
      const id = mine[Math.floor(Math.random() * mine.length)] ?? '';
      const entry = written.get(id);
      const rev = Math.floor(Math.random() * 1e9);
      answer = await gql(UPDATE, { id, data: { rev } }, token);
      // Acknowledged: this is the value now. Failed: the upstream may or may not have applied it.
      if (entry && answer.data?.updateObject) entry.revs = new Set([rev]);
      else entry?.revs.add(rev);
    }
    if (answer.errors?.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) token = await login();
    await sleep(5);
  }
}

// 3. Run, rotating the injected fault.
const every = faultPercent > 0 ? Math.round(100 / faultPercent) : 0;
let rotation = 0;
const rotate = () => {
  const mode = FAULT_MODES[rotation++ % FAULT_MODES.length];
  emulator.setFaults(every > 0 && mode !== undefined ? { every, mode } : undefined);
};
const heapUsedMiB = async (): Promise<number> => {
  const text = await (await fetch(graphqlUrl.replace(/\/graphql$/, '/metrics'))).text();
  const bytes = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0);
  return Math.round(bytes / 104_857.6) / 10;
};
const rssStart = rssMiB(pid);
const heapStart = await heapUsedMiB();
const started = Date.now();
rotate();
const rotator = setInterval(rotate, 15_000);
const progress = setInterval(() => {
  const elapsed = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `  ${elapsed}s: ${requests} requests, ${written.size} writes acknowledged, RSS ${rssMiB(pid)} MiB\n`,
  );
}, 60_000);
const deadline = started + minutes * 60_000;
await Promise.all(Array.from({ length: concurrency }, () => worker(deadline)));
clearInterval(rotator);
clearInterval(progress);
emulator.setFaults(undefined);
const seconds = (Date.now() - started) / 1000;
const loadRequests = requests;
const loadErrors = [...errorsByCode.entries()].sort((a, b) => b[1] - a[1]);
const rssEnd = rssMiB(pid);
const heapEnd = await heapUsedMiB();

// 4. Every acknowledged write must read back as acknowledged.
const token = await login();
const problems: string[] = [];
const pending = [...written.entries()];
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [id, expected] = next;
      const answer = await gql(ONE, { id }, token);
      const data = (
        answer.data?.object as { data?: { loanType?: unknown; rev?: unknown } } | null | undefined
      )?.data;
      if (data?.loanType !== expected.marker || !expected.revs.has(Number(data.rev))) {
        problems.push(
          `${id}: expected ${expected.marker} rev ${[...expected.revs].join('|')}, read ${JSON.stringify(data ?? answer.errors)}`,
        );
      }
    }
  }),
);

// 5. What the gateway counted: upstream attempts by outcome, its own refusals, retries.
const metricsText = await (await fetch(graphqlUrl.replace(/\/graphql$/, '/metrics'))).text();
const sumBy = (family: string, label: string): string => {
  const totals = new Map<string, number>();
  for (const match of metricsText.matchAll(new RegExp(`^${family}\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    const value = new RegExp(`${label}="([^"]*)"`).exec(match[1] ?? '')?.[1] ?? '?';
    totals.set(value, (totals.get(value) ?? 0) + Number(match[2]));
  }
  return [...totals].map(([key, n]) => `${key} ${n}`).join(', ') || 'none';
};

// 6. Stop the gateway as Kubernetes would.
const { code: exitCode } = await stopProcess(gateway.process, 60_000);
await emulator.close();

const lines = [
  `soak: ${minutes} min, ${concurrency} clients, ${faultPercent} % of upstream calls faulted (mode rotating every 15 s)${heapCap === undefined ? '' : `, gateway heap capped at ${heapCap} MiB`}`,
  `requests:          ${loadRequests} in ${seconds.toFixed(0)} s (${(loadRequests / seconds).toFixed(1)}/s)`,
  `errors by code:    ${loadErrors.length === 0 ? 'none' : loadErrors.map(([code, n]) => `${code} ${n}`).join(', ')}`,
  `gateway RSS:       ${rssStart} MiB at start, ${rssEnd} MiB at end (V8 heap used ${heapStart} → ${heapEnd} MiB)`,
  `writes:            ${written.size} acknowledged, ${written.size - problems.length} read back intact, ${problems.length} missing or wrong`,
  `upstream attempts: ${sumBy('gateway_upstream_calls_total', 'outcome')}`,
  `gateway refusals:  ${sumBy('gateway_upstream_rejections_total', 'reason')}`,
  `read retries:      ${sumBy('gateway_upstream_retries_total', 'outcome')}`,
  `gateway exit:      ${String(exitCode)} after SIGTERM (log: ${gatewayLog})`,
  ...problems.slice(0, 20).map((p) => `  problem: ${p}`),
];
process.stdout.write(`\n${lines.join('\n')}\n`);
process.exit(problems.length === 0 && exitCode === 0 ? 0 : 1);
