/**
 * `EMULATOR_CHARSET=iso-8859-1`: the emulator speaks as a servlet whose charset is the Servlet default.
 * Answers are ISO-8859-1 and say so (`?` for what Latin-1 lacks, as Java's encoder writes); a body that
 * declares no charset is read as ISO-8859-1, one that declares it is read in it. The default dialect
 * answers UTF-8, labelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { readEmulatorConfig as readConfig } from '../../emulator/emulator-config.ts';
import { filter, login, type Credentials } from '../support/emulator-wire.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

/** The emulator's settings from `env`, its team types from the demo folder (not the repository's). */
const readEmulatorConfig = (env: Record<string, string>) =>
  readConfig({ OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR, ...env });

const LOAN = 'com.example.LoanType';
const GREETING = 'Grüße aus Köln';

let latin1: RunningEmulator;
let utf8: RunningEmulator;
let demo: Credentials;

const PASSWORD = 'Café-Grüße';
const USERS = [
  {
    userId: 'u-latin',
    username: 'jörg',
    password: PASSWORD,
    mobile: '5550199',
    applicationCode: 'demo',
    organizationCodes: ['acme'],
  },
];

beforeAll(async () => {
  latin1 = await startEmulator({ port: 0, charset: 'iso-8859-1', users: USERS });
  utf8 = await startEmulator({ port: 0, users: USERS });
  demo = await login(latin1);
});
afterAll(async () => {
  await Promise.all([latin1.close(), utf8.close()]);
});

/** Saves `data` with a body of these bytes and Content-Type; answers the new id. */
async function saveBytes(
  emulator: RunningEmulator,
  data: Record<string, unknown>,
  contentType: string,
  credentials: Credentials,
): Promise<string> {
  const body = JSON.stringify({
    objectName: LOAN,
    data,
    apiToken: credentials.apiToken,
    applicationCode: DEMO.applicationCode,
    organizationCode: DEMO.organizationCode,
  });
  const response = await fetch(`${emulator.url}/studio/jsonp/save?callback=cb`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: Buffer.from(body, 'utf8'),
  });
  const text = Buffer.from(await response.arrayBuffer()).toString('latin1');
  const id = /"savedObjectId":"([0-9a-f]+)"/.exec(text)?.[1];
  if (id === undefined) throw new Error(`save failed: ${text}`);
  return id;
}

/** The raw answer of getAll for one id: its Content-Type and bytes. */
async function readRaw(
  emulator: RunningEmulator,
  credentials: Credentials,
  id: string,
): Promise<{ contentType: string; bytes: Buffer }> {
  const query = new URLSearchParams({
    ...credentials,
    objectName: LOAN,
    organizationCode: DEMO.organizationCode,
    filterCommand: filter(['_id', id]),
    callback: 'cb',
  });
  const response = await fetch(`${emulator.url}/studio/jsonp/getAll?${query.toString()}`);
  return {
    contentType: response.headers.get('content-type') ?? '',
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** The record of a raw answer decoded in `encoding`. */
function recordOf(bytes: Buffer, encoding: 'latin1' | 'utf8'): Record<string, unknown> {
  const text = bytes.toString(encoding);
  const json = JSON.parse(text.slice('cb('.length, -');'.length)) as { data: Record<string, unknown>[] };
  return json.data[0] ?? {};
}

describe('EMULATOR_CHARSET=iso-8859-1', () => {
  it('should be read from the environment, in any case', () => {
    expect(readEmulatorConfig({ EMULATOR_CHARSET: 'ISO-8859-1' }).charset).toBe('iso-8859-1');
    expect(readEmulatorConfig({}).charset).toBeUndefined();
    expect(() => readEmulatorConfig({ EMULATOR_CHARSET: 'shift_jis' })).toThrow(/EMULATOR_CHARSET/);
  });

  it('should answer in ISO-8859-1, say so, and write ? for what Latin-1 lacks', async () => {
    const id = await saveBytes(
      latin1,
      { note: GREETING, greek: 'Ελληνικά', emoji: 'a😀b' },
      'application/json; charset=UTF-8',
      demo,
    );
    const { contentType, bytes } = await readRaw(latin1, demo, id);
    expect(contentType).toBe('application/javascript; charset=ISO-8859-1');
    expect(bytes.includes(Buffer.from(GREETING, 'latin1'))).toBe(true);
    expect(recordOf(bytes, 'latin1')).toMatchObject({ note: GREETING, greek: '????????', emoji: 'a?b' });
  });

  it('should read a body that declares no charset as ISO-8859-1, as a servlet does', async () => {
    const id = await saveBytes(latin1, { note: GREETING }, 'application/json', demo);
    const { bytes } = await readRaw(latin1, demo, id);
    // The UTF-8 bytes were taken for Latin-1 characters: the store holds the mojibake of the issue.
    const mojibake = Buffer.from(GREETING, 'utf8').toString('latin1');
    expect(mojibake).toMatch(/^GrÃ¼Ã.e aus KÃ¶ln$/);
    expect(recordOf(bytes, 'latin1').note).toBe(mojibake);
  });

  it('should read ASCII-only JSON (\\u escapes) right whatever it declares', async () => {
    const id = await saveBytes(latin1, { note: 'Gr\\u00fc\\u00dfe' }, 'application/json', demo);
    expect(recordOf((await readRaw(latin1, demo, id)).bytes, 'latin1').note).toBe('Gr\\u00fc\\u00dfe');
  });

  it('should take a form login in Latin-1 without a charset, or in the charset it declares', async () => {
    const post = (emulator: RunningEmulator, body: string, contentType: string) =>
      fetch(`${emulator.url}/app/login.jsp`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      })
        .then((response) => response.arrayBuffer())
        .then((bytes) => JSON.parse(Buffer.from(bytes).toString('latin1')) as Record<string, unknown>);
    const latinBody = 'username=j%F6rg&password=Caf%E9-Gr%FC%DFe';
    const utf8Body = new URLSearchParams({ username: 'jörg', password: PASSWORD }).toString();
    const form = 'application/x-www-form-urlencoded';
    expect(await post(latin1, latinBody, form)).toMatchObject({ status: 'success', username: 'jörg' });
    expect(await post(latin1, utf8Body, `${form}; charset=UTF-8`)).toMatchObject({ status: 'success' });
    expect(await post(latin1, utf8Body, form)).toMatchObject({ status: 'error' });
    expect(await post(utf8, latinBody, `${form}; charset=ISO-8859-1`)).toMatchObject({ status: 'success' });
    expect(await post(utf8, utf8Body, form)).toMatchObject({ status: 'success' });
  });

  it('should refuse a body in a charset it does not know, as getReader() does', async () => {
    const response = await fetch(`${latin1.url}/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=Shift_JIS' },
      body: '{}',
    });
    expect(response.status).toBe(415);
    await response.arrayBuffer();
  });
});

describe('the default dialect', () => {
  it('should answer UTF-8 and say so', async () => {
    const credentials = await login(utf8);
    const id = await saveBytes(utf8, { note: 'Ελληνικά 😀' }, 'application/json', credentials);
    const { contentType, bytes } = await readRaw(utf8, credentials, id);
    expect(contentType).toBe('application/javascript; charset=utf-8');
    expect(recordOf(bytes, 'utf8').note).toBe('Ελληνικά 😀');
  });
});
