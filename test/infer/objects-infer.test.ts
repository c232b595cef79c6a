/**
 * `npm run objects:infer` against the emulator: the file it writes for `com.example.Order` is the demo
 * `order.graphql` (the tests' copy, test/support/fixtures/demo-objects/: same fields, types and
 * references), and passes the gateway's checks. Every run reads its own folder of types
 * (`OBJECT_TYPES_DIR`), never the repository's `schema/objects/`, where a team keeps its own.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kind, parse, print, type ObjectTypeDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { buildSchema } from '../../src/app/build-schema.ts';
import { login as wireLogin, postJson } from '../support/emulator-wire.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

const SCRIPT = new URL('../../scripts/objects-infer.ts', import.meta.url).pathname;

let emulator: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'objects-infer-test-'));
});
afterAll(async () => {
  await emulator.close();
});

/**
 * Runs the command with the emulator's addresses and the demo login; resolves with its exit and output. Its
 * standard input is `input`, then ends: no terminal, as in CI or a script.
 */
function infer(args: string[], env: Record<string, string | undefined> = {}, input = '') {
  const url = emulator.url;
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    const child = execFile(
      process.execPath,
      [SCRIPT, ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          ...{ API_URL: url, BASE_URL: url, STUDIO_URL: url, SERVER_URL: url },
          ...{
            APPLICATION_CODE: 'demo',
            ORGANIZATION_CODE: 'acme',
            INFER_USERNAME: 'demo',
            INFER_PASSWORD: 'demo-password',
          },
          OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
          ...env,
        },
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** A folder of object types holding `files` (name → SDL) alone: a team's types, without the demo's. */
function folderOf(files: Record<string, string>): string {
  const objects = mkdtempSync(join(tmpdir(), 'objects-infer-folder-'));
  for (const [name, sdl] of Object.entries(files)) writeFileSync(join(objects, name), sdl);
  return objects;
}

/** A folder of the demo types plus `files` (name → SDL). */
function folderWith(files: Record<string, string>): string {
  const objects = folderOf(files);
  for (const f of ['customer.graphql', 'loan-type.graphql', 'order.graphql'])
    if (!(f in files)) copyFileSync(join(DEMO_OBJECTS_DIR, f), join(objects, f));
  return objects;
}

/** A team's type the test emulator does not serve, with a reference to a demo type. */
const INVOICE = `type Invoice @dataObject(name: "com.acme.Invoice") {
  id: ID!
  number: String
  customer: Customer @ref(field: "customer.id")
}
`;

/** A type's fields as `name: Type @directive(...)`, descriptions left out. */
function shape(sdl: string): string[] {
  const type = parse(sdl).definitions.find(
    (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION,
  );
  return (type?.fields ?? []).map((f) => print({ ...f, description: undefined }));
}

// Each test starts the command, a Node process compiling the gateway's sources: a budget for a busy machine.
describe('npm run objects:infer', { timeout: 120_000 }, () => {
  it("should write the shipped order.graphql's fields, types and @ref for com.example.Order", async () => {
    const out = join(dir, 'order.graphql');
    const run = await infer(['com.example.Order', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /wrote .*order\.graphql: Order with 4 fields \(1 references\) from 200 of 250 records/,
    );
    const written = readFileSync(out, 'utf8');
    expect(shape(written)).toEqual(shape(readFileSync(join(DEMO_OBJECTS_DIR, 'order.graphql'), 'utf8')));
    expect(shape(written)).toEqual([
      'id: ID!',
      'number: String!',
      'total: Float',
      'status: String',
      'customer: Customer @ref(field: "customer.id")',
    ]);
    expect(written).toMatch(
      /^# Inferred by `npm run objects:infer -- com.example.Order` on \d{4}-\d\d-\d\d from 200 sampled\n# records \(of 250\)/,
    );
    expect(written).toContain('Present in 200 of 200 sampled records (100 %).');
  });

  it('should write a file the gateway starts with in place of the shipped one', async () => {
    const objects = mkdtempSync(join(tmpdir(), 'objects-infer-schema-'));
    for (const f of ['customer.graphql', 'loan-type.graphql'])
      copyFileSync(join(DEMO_OBJECTS_DIR, f), join(objects, f));
    const run = await infer(['com.example.Order', '--out', join(objects, 'order.graphql'), '--sample', '20']);
    expect(run.code).toBe(0);
    const schema = buildSchema({ objectsDir: objects });
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(
      expect.arrayContaining(['order', 'orders']),
    );
  });

  it('should describe nested values as @field(path:) fields', async () => {
    const out = join(dir, 'customer.graphql');
    expect((await infer(['com.example.Customer', '--out', out, '--sample', '30'])).code).toBe(0);
    expect(shape(readFileSync(out, 'utf8'))).toEqual(
      expect.arrayContaining([
        'city: String @field(path: "address.city")',
        'country: String @field(path: "address.country")',
      ]),
    );
  });

  it('should type a field holding longs past 2^53 Long, not Float', async () => {
    const ledger = await startEmulator({ port: 0, objectTypes: ['com.acme.LedgerEntry'] });
    try {
      const { apiToken, applicationCode } = await wireLogin(ledger);
      for (const entryNo of ['9007199254740993', '12']) {
        // Written by hand: the long reaches the emulator (a Java long there) with its digits.
        const body = `{"objectName":"com.acme.LedgerEntry","data":{"entryNo":${entryNo},"amount":2.5},"apiToken":"${apiToken}","applicationCode":"${applicationCode}","organizationCode":"acme"}`;
        expect((await postJson(ledger, '/studio/jsonp/save?callback=cb', body, 'cb')).json.status).toBe(
          'success',
        );
      }
      const out = join(dir, 'ledger-entry.graphql');
      const url = ledger.url;
      const run = await infer(['com.acme.LedgerEntry', '--out', out], {
        ...{ API_URL: url, BASE_URL: url, STUDIO_URL: url, SERVER_URL: url },
      });
      expect(run.stderr).toBe('');
      expect(shape(readFileSync(out, 'utf8'))).toEqual(['id: ID!', 'entryNo: Long', 'amount: Float']);
    } finally {
      await ledger.close();
    }
  });

  it.each([
    [['com.example.Order', '--sample', 'many'], {}, /^objects:infer: --sample must be a whole number/, 2],
    [[], {}, /^objects:infer: usage: npm run objects:infer -- <objectName>/, 2],
    [
      ['com.example.Order', '--type-name', 'Big-Order'],
      {},
      /^objects:infer: --type-name must be a GraphQL name/,
      2,
    ],
    [['com.example.Nothing'], {}, /^objects:infer: failed: .*unknown object name/, 1],
    [['com.example.Order'], { INFER_PASSWORD: 'wrong' }, /^objects:infer: failed: /, 1],
    [
      ['com.example.Order'],
      { API_URL: '', BASE_URL: '', STUDIO_URL: '', SERVER_URL: '' },
      /^objects:infer: objects:infer reads a real upstream/,
      2,
    ],
  ])(
    'should stop with one line for %j (a mistake to change: exit 2; a failure: 1)',
    async (args, env, line, exit) => {
      const run = await infer(
        [...args, ...(args.length > 0 ? ['--out', join(dir, 'never.graphql')] : [])],
        env,
      );
      expect(run.code).toBe(exit);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(line);
      expect(existsSync(join(dir, 'never.graphql'))).toBe(false);
    },
  );

  it("should read only the type asked about and the type its references name, not a team's other types", async () => {
    // The emulator does not serve com.acme.Invoice: asking it about Invoice would fail the run.
    const objects = folderWith({ 'invoice.graphql': INVOICE });
    const out = join(dir, 'order-beside-invoice.graphql');
    const run = await infer(['com.example.Order', '--out', out, '--sample', '20'], {
      OBJECT_TYPES_DIR: objects,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(shape(readFileSync(out, 'utf8'))).toContain('customer: Customer @ref(field: "customer.id")');
  });

  it('should leave a field a plain value, and say so, when the upstream does not have the type it names', async () => {
    // A team's real upstream, say, without the demo's com.example.Customer: a ClassNotFoundException there.
    const objects = folderOf({
      'customer.graphql':
        'type Customer @dataObject(name: "com.missing.Customer") {\n  id: ID!\n  name: String\n}\n',
    });
    const out = join(dir, 'order-without-customer.graphql');
    const run = await infer(['com.example.Order', '--out', out, '--sample', '20'], {
      OBJECT_TYPES_DIR: objects,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^objects:infer: com\.missing\.Customer \(declared in .*\) is not read by this upstream \("unknown object name"\): no reference to it\n$/,
    );
    expect(shape(readFileSync(out, 'utf8'))).toContain('customerId: String! @field(path: "customer.id")');
  });

  it('should refuse a type name another type has, and name a free one for --type-name; then write it', async () => {
    // A team's own Order, beside which the emulator's com.example.Order is read.
    const objects = folderOf({
      'order.graphql':
        'type Order @dataObject(name: "com.corp.Order") {\n  id: ID!\n  reference: String\n}\n',
    });
    const refused = await infer(['com.example.Order'], { OBJECT_TYPES_DIR: objects });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^objects:infer: type Order is already com\.corp\.Order's \(.*order\.graphql\): pass --type-name ExampleOrder \(or another name\) to type com\.example\.Order\n$/,
    );

    const run = await infer(['com.example.Order', '--type-name', 'ExampleOrder', '--sample', '20'], {
      OBJECT_TYPES_DIR: objects,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const written = readFileSync(join(objects, 'example-order.graphql'), 'utf8');
    expect(written).toMatch(
      /^# Inferred by `npm run objects:infer -- com\.example\.Order --type-name ExampleOrder`/m,
    );
    expect(written).toContain('type ExampleOrder @dataObject(name: "com.example.Order")');
    const schema = buildSchema({ objectsDir: objects });
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(
      expect.arrayContaining(['order', 'exampleOrder', 'exampleOrders']),
    );
  });

  it('should not replace an existing file without --force', async () => {
    const run = await infer(['com.example.Order', '--out', join(DEMO_OBJECTS_DIR, 'order.graphql')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/exists: pass --force/);
  });

  it('should say what to set, exit 2 and write nothing without a terminal or a login in the settings', async () => {
    const out = join(dir, 'no-login.graphql');
    const run = await infer(['com.example.Order', '--out', out], {
      INFER_USERNAME: undefined,
      INFER_PASSWORD: undefined,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'objects:infer: no terminal to ask for the upstream username on, and the input ended: set INFER_USERNAME and INFER_PASSWORD (or pipe the two answers, one a line)\n',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('should take the two answers piped in, one a line, without prompts', async () => {
    const out = join(dir, 'piped-login.graphql');
    const run = await infer(
      ['com.example.Order', '--out', out, '--sample', '20'],
      { INFER_USERNAME: undefined, INFER_PASSWORD: undefined },
      'demo\ndemo-password\n',
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/wrote .*piped-login\.graphql/);
    expect(existsSync(out)).toBe(true);
  });
});
