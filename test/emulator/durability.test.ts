import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, DEMO_SEED_COUNTS, startEmulator } from '../../emulator/index.ts';
import { filter, getAll, getJsonp, ids, login, postJson, saveObject } from '../support/emulator-wire.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'emulator-durability-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const LOAN = 'com.example.LoanType';

it('should seed the data file on first start and read saved objects back after a restart', async () => {
  const dataFile = join(dir, 'store.json');
  const first = await startEmulator({ port: 0, dataFile });
  let id: string;
  let seeded: string[];
  try {
    const demo = await login(first);
    seeded = ids(await getAll(first, demo, LOAN, { pageSize: '1000' }));
    expect(seeded).toHaveLength(DEMO_SEED_COUNTS[LOAN]);
    const saved = await saveObject(first, { ...demo, organizationCode: 'acme' }, LOAN, {
      loanType: 'Durable',
    });
    id = saved.json.savedObjectId as string;
    const updated = await getJsonp(first, `/studio/jsonp/update/${seeded[0]!}`, {
      ...demo,
      objectName: LOAN,
      data: JSON.stringify({ description: 'changed before restart' }),
    });
    expect(updated.json.status).toBe('success');
  } finally {
    await first.close();
  }
  expect(JSON.parse(await readFile(dataFile, 'utf8'))).toMatchObject({ format: 'upstream-emulator/1' });

  const second = await startEmulator({ port: 0, dataFile });
  try {
    const demo = await login(second);
    const all = await getAll(second, demo, LOAN, { pageSize: '1000' });
    expect(ids(all)).toEqual([...seeded, id]);
    const [record] = (await getAll(second, demo, LOAN, { filterCommand: filter(['_id', id]) })).json.data as {
      loanType: string;
    }[];
    expect(record!.loanType).toBe('Durable');
    const metadata = await getJsonp(second, `/studio/jsonp/metadata/get/${seeded[0]!}/`, demo);
    expect(metadata.json.data).toMatchObject({ version: 2 });
  } finally {
    await second.close();
  }
});

it('should persist every save of a concurrent burst', async () => {
  const dataFile = join(dir, 'burst.json');
  const emulator = await startEmulator({ port: 0, dataFile });
  const saved: string[] = [];
  try {
    const demo = await login(emulator);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        saveObject(emulator, { ...demo, organizationCode: 'acme' }, LOAN, { loanType: `Burst ${i}` }),
      ),
    );
    for (const answer of answers) saved.push(answer.json.savedObjectId as string);
  } finally {
    await emulator.close();
  }
  const file = JSON.parse(await readFile(dataFile, 'utf8')) as { objects: { record: { _id: string } }[] };
  const stored = new Set(file.objects.map((o) => o.record._id));
  for (const id of saved) expect(stored.has(id)).toBe(true);
});

it('should ignore and clean up a partial temp file left by a crash', async () => {
  const dataFile = join(dir, 'crash.json');
  const first = await startEmulator({ port: 0, dataFile });
  await first.close();
  const before = await readFile(dataFile, 'utf8');
  // What a crash between writing and renaming leaves behind: a half-written temp file beside the store.
  await writeFile(join(dir, '.crash.json.99999.0.tmp'), before.slice(0, before.length / 2));
  const second = await startEmulator({ port: 0, dataFile });
  try {
    const answer = await getAll(second, await login(second), LOAN, { pageSize: '1000' });
    expect(ids(answer)).toHaveLength(DEMO_SEED_COUNTS[LOAN]);
  } finally {
    await second.close();
  }
  expect((await readdir(dir)).filter((name) => name.startsWith('.crash.json.'))).toEqual([]);
});

it('should refuse to start on a corrupt data file, naming it, and leave the file alone', async () => {
  const dataFile = join(dir, 'corrupt.json');
  await writeFile(dataFile, '{"format":"upstream-emulator/1","objects":[{"record":');
  await expect(startEmulator({ port: 0, dataFile })).rejects.toThrow(/corrupt\.json is not valid JSON/);
  await writeFile(dataFile, '{"format":"something-else","objects":[]}');
  await expect(startEmulator({ port: 0, dataFile })).rejects.toThrow(/not an emulator data file/);
  expect(await readFile(dataFile, 'utf8')).toBe('{"format":"something-else","objects":[]}');
});

it('should keep the demo login working on a restored store', async () => {
  const dataFile = join(dir, 'store.json');
  const emulator = await startEmulator({ port: 0, dataFile });
  try {
    const answer = await postJson(emulator, '/v1/user/login', {
      username: DEMO.username,
      password: DEMO.password,
    });
    expect(answer.json.status).toBe('success');
  } finally {
    await emulator.close();
  }
});
