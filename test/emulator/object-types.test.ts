/**
 * The emulator serves a team's own object types: every `@dataObject(name:)` of the object types folder and
 * every name of `EMULATOR_OBJECT_TYPES`, empty until saved to; other names are still refused.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeclaredObjectNames } from '../../emulator/store/declared-object-names.ts';
import { readEmulatorConfig } from '../../emulator/emulator-config.ts';
import { stopProcess } from '../../support/child-process.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { startEmulatorCommand, type EmulatorCommand } from '../support/emulator-command.ts';
import { useObjectTypesFolders } from '../support/use-object-types-folders.ts';

const THING = 'com.probe.Thing';

let emulator: EmulatorCommand;
let url: string;
let credentials: Record<string, string>;

/** One JSONP answer's JSON (callback `cb`). */
async function jsonp(response: Response): Promise<Record<string, unknown>> {
  const body = await response.text();
  const json = /^\s*cb\(([\s\S]*)\);?\s*$/.exec(body)?.[1];
  if (json === undefined) throw new Error(`not JSONP: ${body}`);
  return JSON.parse(json) as Record<string, unknown>;
}
const getAll = async (objectName: string, pageStart: number) =>
  jsonp(
    await fetch(
      `${url}/studio/jsonp/getAll?${new URLSearchParams({ ...credentials, objectName, pageSize: '2', pageStart: String(pageStart), filterCommand: '{"criteria":[]}', callback: 'cb' }).toString()}`,
    ),
  );
const save = async (objectName: string, data: Record<string, unknown>) =>
  jsonp(
    await fetch(`${url}/studio/jsonp/save?callback=cb`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        objectName,
        data,
        apiToken: credentials.apiToken,
        applicationCode: 'demo',
        organizationCode: 'acme',
        callback: 'cb',
      }),
    }),
  );

beforeAll(async () => {
  emulator = await startEmulatorCommand({ EMULATOR_OBJECT_TYPES: THING });
  url = emulator.url;
  const login = await fetch(`${url}/v1/user/login`, {
    method: 'POST',
    body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
  });
  const token = ((await login.json()) as { token: string }).token;
  credentials = { username: 'demo', apiToken: token, applicationCode: 'demo', organizationCode: 'acme' };
});
afterAll(async () => {
  await stopProcess(emulator.process);
});

describe('npm run emulator with EMULATOR_OBJECT_TYPES=com.probe.Thing', () => {
  it('should serve the type empty until something is saved', async () => {
    expect(await getAll(THING, 0)).toMatchObject({ status: 'success', data: [], totalCount: 0 });
  });

  it('should save objects of the type and page them', async () => {
    for (const n of [1, 2, 3]) expect(await save(THING, { n })).toMatchObject({ status: 'success' });
    const first = await getAll(THING, 0);
    const second = await getAll(THING, 1);
    expect(first).toMatchObject({ status: 'success', totalCount: 3 });
    expect((first.data as { n: number }[]).map((r) => r.n)).toEqual([1, 2]);
    expect((second.data as { n: number }[]).map((r) => r.n)).toEqual([3]);
  });

  it('should still refuse a name nobody declared', async () => {
    expect(await getAll('com.probe.Other', 0)).toMatchObject({
      status: 'error',
      message: 'unknown object name',
    });
    expect(await save('com.probe.Other', { n: 1 })).toMatchObject({ status: 'error' });
  });
});

describe('the object types an emulator serves', () => {
  const folderWith = useObjectTypesFolders('object-types-');

  it("should read every @dataObject name of a folder's SDL files, skipping files that do not parse", () => {
    const dir = folderWith({
      'invoice.graphql': 'type Invoice @dataObject(name: "com.acme.Invoice") { id: ID! }',
      'broken.graphql': 'type {',
      'notes.txt': 'type Note @dataObject(name: "com.acme.Note") { id: ID! }',
    });
    expect(readDeclaredObjectNames(dir)).toEqual(['com.acme.Invoice']);
    expect(readDeclaredObjectNames(join(dir, 'missing'))).toEqual([]);
    expect(
      readEmulatorConfig({ OBJECT_TYPES_DIR: dir, EMULATOR_OBJECT_TYPES: 'a.B, com.acme.Invoice' })
        .objectTypes,
    ).toEqual(['com.acme.Invoice', 'a.B']);
  });

  it('should serve no extra type for a folder that declares only the demo types', () => {
    expect(readEmulatorConfig({ OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR }).objectTypes).toBeUndefined();
  });

  it('should refuse an EMULATOR_OBJECT_TYPES entry that is not an object name, naming the setting', () => {
    expect(() =>
      readEmulatorConfig({
        OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
        EMULATOR_OBJECT_TYPES: 'com.acme.Invoice,not a name',
      }),
    ).toThrow(/^EMULATOR_OBJECT_TYPES: /);
  });
});
