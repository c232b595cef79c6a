/**
 * `npm start` (src/main.ts) as a new team meets it: production never runs on the emulator by accident and
 * names every missing setting in one run, a misspelt NODE_ENV stops it, the banner names the upstream and
 * the switches that change the API, the embedded emulator takes a free
 * port, and a busy port names the setting that moves it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { childGroupOptions, recordChild } from '../../support/child-registry.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

/** `npm start` as package.json spells it (its Node flags and launcher), run by this Node without npm. */
function npmStartArgs(): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts;
  const [command, ...args] = scripts.start.split(' ');
  if (command !== 'node') throw new Error(`npm start no longer runs node: ${scripts.start}`);
  return args;
}
const SECRET = 's'.repeat(40);

/** Starts the command; `ready` resolves with stdout once it printed its banner, or once it exited. */
function start(env: Record<string, string>, args: string[] = [MAIN]) {
  const child = recordChild(
    spawn(process.execPath, args, {
      ...childGroupOptions(),
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  const ready = async () => {
    while (!stdout.includes('GraphQL endpoint:') && child.exitCode === null) {
      await Promise.race([once(child.stdout, 'data'), exited]);
    }
    return stdout;
  };
  running.push(child);
  return { child, exited, ready, output: () => ({ stdout, stderr }) };
}
const running: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Holds a port on 127.0.0.1 (`port` 0: any free one); resolves with the port and a way to free it. */
async function holdPort(port = 0): Promise<{ port: number; server: Server | undefined }> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
  } catch {
    return { port, server: undefined }; // already held by someone else: busy all the same
  }
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : port, server };
}

const graphqlUrl = (stdout: string) => /GraphQL endpoint: (\S+)/.exec(stdout)?.[1] ?? '';

describe('npm start in production', () => {
  it('should exit non-zero naming every setting production requires, one line each, in one run', async () => {
    const { exited, output } = start({ NODE_ENV: 'production', PORT: '0' });
    expect((await exited)[0]).toBe(1);
    const lines = output().stderr.trim().split('\n');
    const hint = 'required in production (or UPSTREAM=emulator to run on the demo emulator on purpose)';
    expect(lines).toEqual([
      `Invalid setting API_URL: ${hint}`,
      `Invalid setting BASE_URL: ${hint}`,
      `Invalid setting STUDIO_URL: ${hint}`,
      `Invalid setting SERVER_URL: ${hint}`,
      'Invalid setting APPLICATION_CODE: required in production',
      'Invalid setting ORGANIZATION_CODE: required in production (the upstream refuses saves without one), unless ALLOWED_ORGANIZATION_CODES lists the organizations each login must choose from',
      'Invalid setting SESSION_SECRET: required in production (at least 32 characters)',
    ]);
    expect(output().stdout).toBe('');
  });

  it('should name a malformed setting beside the missing ones', async () => {
    const { exited, output } = start({ NODE_ENV: 'production', PORT: 'eighty', SESSION_SECRET: SECRET });
    expect((await exited)[0]).toBe(1);
    const lines = output().stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^Invalid setting PORT: /);
    expect(lines.map((line) => /^Invalid setting (\w+):/.exec(line)?.[1])).toEqual([
      'PORT',
      'API_URL',
      'BASE_URL',
      'STUDIO_URL',
      'SERVER_URL',
      'APPLICATION_CODE',
      'ORGANIZATION_CODE',
    ]);
  });

  it.each(['prod', 'Production', 'PRODUCTION', 'staging'])(
    'should refuse to start with NODE_ENV=%s, listing the accepted values',
    async (value) => {
      const { exited, output } = start({ NODE_ENV: value, PORT: '0' });
      expect((await exited)[0]).toBe(1);
      expect(output().stderr.trim()).toBe(
        'Invalid setting NODE_ENV: must be one of production, development, test (exactly; unset means development)',
      );
      expect(output().stdout).toBe('');
    },
  );

  it('should run on the emulator with a loud warning only when UPSTREAM=emulator says so', async () => {
    const gateway = start({
      NODE_ENV: 'production',
      SESSION_SECRET: SECRET,
      PORT: '0',
      UPSTREAM: 'emulator',
    });
    const stdout = await gateway.ready();
    expect(gateway.output().stderr).toContain('WARNING: UPSTREAM=emulator in production');
    const answer = await fetch(graphqlUrl(stdout), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation { login(username: "demo", password: "demo-password") { token } }',
      }),
    });
    expect(
      ((await answer.json()) as { data?: { login?: { token?: string } } }).data?.login?.token,
    ).toBeTruthy();
    gateway.child.kill('SIGTERM');
    expect((await gateway.exited)[0]).toBe(0);
  });
});

describe('the banner of npm start in production', () => {
  it('should name the upstream it calls and the switches that change the API', async () => {
    const upstream = await startEmulator({ port: 0 });
    try {
      const gateway = start({
        NODE_ENV: 'production',
        SESSION_SECRET: SECRET,
        PORT: '0',
        API_URL: upstream.url,
        BASE_URL: upstream.url,
        STUDIO_URL: upstream.url,
        SERVER_URL: upstream.url,
        APPLICATION_CODE: 'demo',
        ORGANIZATION_CODE: 'acme',
        OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
        RELAY_NODE: 'true',
        FEDERATION: 'true',
        TRUSTED_DOCUMENTS: join(ROOT, 'examples/web/src/generated/persisted-documents.json'),
      });
      const stdout = await gateway.ready();
      expect(stdout).toMatch(new RegExp(`^Upstream: +${upstream.url} \\(BASE_URL\\)$`, 'm'));
      expect(stdout).toMatch(
        /^API: +RELAY_NODE=true \(.*\), FEDERATION=true \(an Apollo Federation 2 subgraph\), TRUSTED_DOCUMENTS \(1 manifest\)$/m,
      );
      expect(stdout).toMatch(/^Settings: +npm run config /m);
      gateway.child.kill('SIGTERM');
      expect((await gateway.exited)[0]).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});

describe('npm start in development', () => {
  it('should start even when port 4010 is busy: the embedded emulator takes a free port', async () => {
    const held = await holdPort(4010);
    try {
      const gateway = start({ PORT: '0' });
      const stdout = await gateway.ready();
      const emulatorUrl = /Upstream: +embedded emulator at (\S+)/.exec(stdout)?.[1] ?? '';
      expect(emulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulatorUrl).not.toBe('http://127.0.0.1:4010');
      expect(stdout).toMatch(
        /^Data: +in memory, lost at exit \(EMULATOR_DATA_FILE=<file> keeps it across restarts\)$/m,
      );
      expect(stdout).toMatch(
        /^API: +the default schema \(RELAY_NODE, FEDERATION and TRUSTED_DOCUMENTS off\)$/m,
      );
      // The README's excerpt of this banner: the same lines, in the same order (addresses and versions aside).
      const labels = (text: string) =>
        text.split('\n').flatMap((line) => /^([A-Z][A-Za-z. ]+):\s/.exec(line)?.[1] ?? []);
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const excerpt = /`npm start` prints:\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
      expect(labels(excerpt)).toEqual(labels(stdout));
      gateway.child.kill('SIGTERM');
      expect((await gateway.exited)[0]).toBe(0);
    } finally {
      held.server?.close();
    }
  });

  it('should warn about the emulator settings it ignores', async () => {
    const gateway = start({ PORT: '0', EMULATOR_CHARSET: 'iso-8859-1' });
    await gateway.ready();
    expect(gateway.output().stderr).toContain('WARNING: npm start ignores EMULATOR_CHARSET: ');
    gateway.child.kill('SIGTERM');
    expect((await gateway.exited)[0]).toBe(0);
  });

  it.each([
    ['PORT', 'gateway'],
    ['EMULATOR_PORT', 'embedded emulator'],
  ])('should exit with one line naming %s when the port it sets is busy', async (setting, what) => {
    const held = await holdPort();
    try {
      const { exited, output } = start({ PORT: '0', [setting]: String(held.port) });
      expect((await exited)[0]).toBe(1);
      expect(output().stderr.trim().split('\n')).toEqual([
        `cannot start the ${what}: 127.0.0.1:${held.port} is already in use; set ${setting} to a free port (or stop what holds it)`,
      ]);
    } finally {
      held.server?.close();
    }
  });
});

/** POSTs one GraphQL operation; answers its `data`, throwing its errors. */
async function graphql(url: string, query: string, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  const answer = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data ?? {};
}

describe('npm start with a type declared only in the object types folder', () => {
  it('should save an object of the fresh type on the embedded emulator and read it back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-objects-'));
    cpSync(DEMO_OBJECTS_DIR, dir, { recursive: true });
    writeFileSync(
      join(dir, 'invoice.graphql'),
      'type Invoice @dataObject(name: "com.acme.Invoice") { id: ID! number: String total: Float }\n',
    );
    const gateway = start({ PORT: '0', OBJECT_TYPES_DIR: dir });
    const url = graphqlUrl(await gateway.ready());
    const login = await graphql(
      url,
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    );
    const token = (login.login as { token: string }).token;
    const saved = await graphql(
      url,
      'mutation { saveInvoice(input: { number: "INV-1", total: 12.5 }) { id } }',
      token,
    );
    const id = (saved.saveInvoice as { id: string }).id;
    const read = await graphql(
      url,
      `{ invoice(id: "${id}") { id number total } invoices { totalCount } }`,
      token,
    );
    expect(read).toEqual({ invoice: { id, number: 'INV-1', total: 12.5 }, invoices: { totalCount: 1 } });
    gateway.child.kill('SIGTERM');
    expect((await gateway.exited)[0]).toBe(0);
  });
});

describe('npm start with EMULATOR_DATA_FILE', () => {
  it('should keep what was saved across a restart of the real start command, and say where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-data-'));
    const file = join(dir, 'emulator-data.json');
    const LOGIN = 'mutation { login(username: "demo", password: "demo-password") { token } }';
    try {
      const first = start(
        { PORT: '0', EMULATOR_DATA_FILE: file, OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR },
        npmStartArgs(),
      );
      const firstOut = await first.ready();
      expect(firstOut).toContain(`Data:             kept in ${file} across restarts (EMULATOR_DATA_FILE)`);
      const firstUrl = graphqlUrl(firstOut);
      let token = ((await graphql(firstUrl, LOGIN)).login as { token: string }).token;
      const saved = await graphql(
        firstUrl,
        'mutation { saveLoanType(input: { loanType: "kept across restarts", rate: 4.25 }) { id } }',
        token,
      );
      const id = (saved.saveLoanType as { id: string }).id;
      first.child.kill('SIGTERM');
      expect((await first.exited)[0]).toBe(0);
      expect(existsSync(file)).toBe(true);

      const second = start(
        { PORT: '0', EMULATOR_DATA_FILE: file, OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR },
        npmStartArgs(),
      );
      const secondUrl = graphqlUrl(await second.ready());
      token = ((await graphql(secondUrl, LOGIN)).login as { token: string }).token;
      const read = await graphql(
        secondUrl,
        `{ loanType(id: "${id}") { id loanType rate } loanTypes { totalCount } }`,
        token,
      );
      expect(read).toEqual({
        loanType: { id, loanType: 'kept across restarts', rate: 4.25 },
        loanTypes: { totalCount: 31 },
      });
      second.child.kill('SIGTERM');
      expect((await second.exited)[0]).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
