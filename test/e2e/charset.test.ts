/**
 * The gateway in front of an upstream that speaks as a servlet with the Servlet default charset
 * (`EMULATOR_CHARSET=iso-8859-1`: answers ISO-8859-1, labelled; bodies without a charset read as ISO-8859-1),
 * end to end. Accented text saves and reads back right through GraphQL, and the upstream's own store holds
 * it right: the two mistakes of a UTF-8 client (answers read as UTF-8, bodies sent without a charset)
 * cancel out in the gateway's read-back, so only the store shows whether the body was read right.
 */
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway, useHarness, type TestGateway } from '../support/gateway-harness.ts';
import { ObjectDocument, SaveDocument, UpdateDocument } from '../support/operations.ts';

const LOAN = 'com.example.LoanType';
const dataFile = join(tmpdir(), `charset-e2e-${process.pid}-${Date.now()}.json`);
afterAll(() => rm(dataFile, { force: true }));

const JORG = {
  userId: 'u-jorg',
  username: 'jörg',
  password: 'Café-Grüße',
  mobile: '5550188',
  applicationCode: 'demo',
  organizationCodes: ['acme'],
};

const h = useHarness({
  emulator: { charset: 'iso-8859-1', dataFile, users: [JORG] },
  listen: false,
});

/** The record `id` as the emulator's store holds it (its data file, written before a save answers). */
async function stored(id: string): Promise<Record<string, unknown> | undefined> {
  const file = JSON.parse(await readFile(dataFile, 'utf8')) as {
    objects: { record: Record<string, unknown> }[];
  };
  return file.objects.find((object) => object.record._id === id)?.record;
}

const LOGIN = `mutation($username: String!, $password: String!, $method: LoginMethod) {
  login(username: $username, password: $password, method: $method) { token }
}`;

async function loginAs(harness: TestGateway, username: string, password: string, method: 'JSON' | 'FORM') {
  return harness.post(LOGIN, { username, password, method });
}

describe('an ISO-8859-1 upstream (EMULATOR_CHARSET=iso-8859-1), end to end', () => {
  it('should save, update and read back accented text right, and the upstream should store it right', async () => {
    const client = h.client(await h.login());
    const saved = await client.mutate({
      mutation: SaveDocument,
      variables: { objectName: LOAN, data: { loanType: 'Société Générale', description: 'Grüße aus Köln' } },
    });
    expect(saved.error).toBeUndefined();
    const id = saved.data!.saveObject.id;
    expect(saved.data!.saveObject.object?.data).toMatchObject({
      loanType: 'Société Générale',
      description: 'Grüße aus Köln',
    });
    expect(await stored(id)).toMatchObject({ loanType: 'Société Générale', description: 'Grüße aus Köln' });

    const updated = await client.mutate({
      mutation: UpdateDocument,
      variables: { id, objectName: LOAN, data: { description: 'Crème brûlée à Zürich' } },
    });
    expect(updated.error).toBeUndefined();
    expect(updated.data!.updateObject.object?.data).toMatchObject({ description: 'Crème brûlée à Zürich' });
    expect(await stored(id)).toMatchObject({ description: 'Crème brûlée à Zürich' });

    const read = await client.query({ query: ObjectDocument, variables: { objectName: LOAN, id } });
    expect(read.data!.object!.data).toMatchObject({
      loanType: 'Société Générale',
      description: 'Crème brûlée à Zürich',
    });
  });

  it('should log in with an accented username and password, by JSON and by form', async () => {
    for (const method of ['JSON', 'FORM'] as const) {
      const answer = await loginAs(h, 'jörg', 'Café-Grüße', method);
      expect(answer.errors).toBeUndefined();
    }
  });

  it('should refuse, before saving, text the upstream would answer as ? once it has answered in ISO-8859-1', async () => {
    const token = await h.login();
    const client = h.client(token);
    // A read first: the gateway has heard the upstream answer in ISO-8859-1.
    await client.query({
      query: ObjectDocument,
      variables: { objectName: LOAN, id: '000000000000000000000000' },
    });
    const saves = h.upstreamCalls().save;
    const answer = await h.post(
      `mutation($data: JSONObject!) { saveObject(objectName: "${LOAN}", data: $data) { id } }`,
      { data: { loanType: 'Ελληνικά 😀' } },
      { authorization: `Bearer ${token}` },
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toMatch(/data\.loanType .*cannot give back.*ISO-8859-1/);
    expect(h.upstreamCalls().save).toBe(saves);
  });

  it('should store text outside Latin-1 right when a fresh gateway saves it first, and name the ? it reads back, never answer it as current', async () => {
    // Before any answer the gateway knows nothing of the charset: the write goes through, and the
    // upstream's own answer is all ? where Latin-1 lacks a character: the read-back shows it.
    const fresh = await startGateway({ upstreamUrl: h.emulator.url, listen: false });
    try {
      const login = await loginAs(fresh, 'demo', 'demo-password', 'JSON');
      const token = (login.data as { login: { token: string } }).login.token;
      const saved = await fresh.post(
        `mutation($data: JSONObject!) { saveObject(objectName: "${LOAN}", data: $data) { id object { data } } }`,
        { data: { loanType: 'Ελληνικά 😀' } },
        { authorization: `Bearer ${token}` },
      );
      const error = saved.errors?.[0];
      expect(error?.extensions).toMatchObject({
        code: 'UPSTREAM_DIALECT_MISMATCH',
        assumption: 'stored_as_sent',
        applied: true,
        fields: [{ field: 'loanType', sent: '"Ελληνικά 😀"', readBack: '"???????? ?"' }],
      });
      expect(await stored(String(error?.extensions?.objectId))).toMatchObject({ loanType: 'Ελληνικά 😀' });
    } finally {
      await fresh.close();
    }
  });
});

describe('UPSTREAM_REQUEST_CHARSET=iso-8859-1, end to end', () => {
  const latin = useHarness({
    emulator: { charset: 'iso-8859-1', users: [JORG] },
    env: { UPSTREAM_REQUEST_CHARSET: 'iso-8859-1' },
    listen: false,
  });

  it('should send the form login in Latin-1, declared, and log in', async () => {
    const answer = await loginAs(latin, 'jörg', 'Café-Grüße', 'FORM');
    expect(answer.errors).toBeUndefined();
  });

  it('should refuse a password Latin-1 cannot hold as the caller’s mistake, before sending it', async () => {
    const before = latin.upstreamCalls().loginForm;
    const answer = await loginAs(latin, 'jörg', 'Café-€', 'FORM');
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toMatch(/ISO-8859-1/);
    expect(JSON.stringify(answer)).not.toContain('Café-€');
    expect(latin.upstreamCalls().loginForm).toBe(before);
  });
});
