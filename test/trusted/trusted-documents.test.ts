/**
 * Trusted documents end to end: the real gateway with a persisted-documents manifest (the format GraphQL
 * Code Generator's client preset writes), asked by id (`documentId`, POST and GET), by Apollo's
 * `persistedQuery` hash (Apollo Client's own link), and by text, with and without TRUSTED_DOCUMENTS_ONLY.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { getOperationAST } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/gateway-harness.ts';

const LOAN_TYPES = 'query LoanTypeCount { loanTypes(first: 1) { totalCount } }';
const LOGIN =
  'mutation Login($username: String!, $password: String!) { login(username: $username, password: $password) { token } }';
const idOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

let dir: string;
let manifest: string;
let open: Harness;
let only: Harness;
let logLines: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trusted-documents-'));
  manifest = join(dir, 'persisted-documents.json');
  await writeFile(manifest, JSON.stringify({ [idOf(LOAN_TYPES)]: LOAN_TYPES, [idOf(LOGIN)]: LOGIN }));
  open = await startHarness({ env: { TRUSTED_DOCUMENTS: manifest } });
  logLines = [];
  only = await startHarness({
    upstream: open.emulator,
    env: { TRUSTED_DOCUMENTS: manifest, TRUSTED_DOCUMENTS_ONLY: 'true' },
    logStream: {
      write: (line: string) => logLines.push(line),
    } as unknown as NodeJS.WritableStream,
  });
});
afterAll(async () => {
  await only.close();
  await open.close();
  await rm(dir, { recursive: true, force: true });
});

/** Logs in through the trusted-only gateway, by the Login document's id. */
async function login(h: Harness): Promise<string> {
  const answer = await post(h, {
    documentId: idOf(LOGIN),
    variables: { username: 'demo', password: 'demo-password' },
  });
  const token = (answer.body as { data?: { login?: { token?: string } } }).data?.login?.token;
  if (token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return token;
}

async function post(h: Harness, body: unknown, token?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(h.graphqlUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const refused = (code: string) => ({
  errors: [{ message: expect.any(String) as unknown, extensions: { code, blame: 'caller' } }],
});

describe('a request naming a trusted document', () => {
  it('should run the document of a documentId', async () => {
    const token = await login(only);
    const answer = await post(only, { documentId: idOf(LOAN_TYPES) }, token);
    expect(answer).toEqual({ status: 200, body: { data: { loanTypes: { totalCount: 30 } } } });
  });

  it('should run the document of a documentId sent by GET', async () => {
    const token = await login(only);
    const url = `${only.graphqlUrl}?documentId=${encodeURIComponent(idOf(LOAN_TYPES))}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' },
    });
    expect(await response.json()).toEqual({ data: { loanTypes: { totalCount: 30 } } });
  });

  // What urql's and Relay's persisted GETs and Apollo's `useGETForHashedQueries` send: no preflight header.
  it.each([
    ['documentId', () => `documentId=${encodeURIComponent(idOf(LOAN_TYPES))}`],
    [
      'extensions.persistedQuery',
      () => {
        const hash = idOf(LOAN_TYPES).replace(/^sha256:/, '');
        const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
        return `operationName=LoanTypeCount&extensions=${encodeURIComponent(extensions)}`;
      },
    ],
  ])('should run the document named by %s in a GET without a preflight header', async (_label, search) => {
    const token = await login(only);
    const response = await fetch(`${only.graphqlUrl}?${search()}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { loanTypes: { totalCount: 30 } } });
  });

  it('should refuse by GET, without a preflight header, a text no manifest holds', async () => {
    const token = await login(only);
    const text = '{ loanTypes(first: 2) { totalCount } }';
    const response = await fetch(`${only.graphqlUrl}?query=${encodeURIComponent(text)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refused('PERSISTED_QUERY_NOT_IN_LIST'));
  });

  it("should run the document of Apollo Client's persisted-query hash, never sending the text", async () => {
    const token = await login(only);
    const sent: unknown[] = [];
    // As the client preset's `__meta__.hash`: each operation knows its id in the manifest.
    const ids: Record<string, string> = { LoanTypeCount: idOf(LOAN_TYPES) };
    const client = new ApolloClient({
      link: ApolloLink.from([
        new PersistedQueryLink({
          generateHash: (document) => {
            const name = getOperationAST(document)?.name?.value ?? '';
            return (ids[name] ?? '').replace(/^sha256:/, '');
          },
          retry: () => false,
        }),
        new HttpLink({
          uri: only.graphqlUrl,
          headers: { authorization: `Bearer ${token}` },
          fetch: (input, init) => {
            sent.push(JSON.parse(typeof init?.body === 'string' ? init.body : ''));
            return fetch(input, init);
          },
        }),
      ]),
      cache: new InMemoryCache(),
      defaultOptions: {
        query: { fetchPolicy: 'no-cache', errorPolicy: 'all' },
        mutate: { errorPolicy: 'all' },
      },
    });
    const result = await client.query({ query: gql(LOAN_TYPES) });
    expect(result.data).toEqual({ loanTypes: { totalCount: 30 } });
    expect(sent).toEqual([expect.not.objectContaining({ query: expect.anything() as unknown }) as unknown]);
  });

  it('should refuse an id no manifest holds with PERSISTED_QUERY_NOT_FOUND, on either gateway', async () => {
    for (const h of [open, only]) {
      expect(await post(h, { documentId: idOf('{ me { token } }') })).toEqual({
        status: 400,
        body: refused('PERSISTED_QUERY_NOT_FOUND'),
      });
    }
  });

  it('should refuse a documentId sent with a query, as BAD_REQUEST', async () => {
    expect(await post(open, { documentId: idOf(LOAN_TYPES), query: LOAN_TYPES })).toEqual({
      status: 400,
      body: refused('BAD_REQUEST'),
    });
  });
});

describe('a request sending a document as text', () => {
  it('should run it when trusted documents are not the only ones', async () => {
    const token = await open.login();
    const answer = await post(open, { query: '{ loanTypes(first: 1) { totalCount } }' }, token);
    expect(answer).toEqual({ status: 200, body: { data: { loanTypes: { totalCount: 30 } } } });
  });

  it('should run it with TRUSTED_DOCUMENTS_ONLY when a manifest holds that very text', async () => {
    const token = await login(only);
    expect(await post(only, { query: LOAN_TYPES }, token)).toEqual({
      status: 200,
      body: { data: { loanTypes: { totalCount: 30 } } },
    });
  });

  it('should refuse any other text with PERSISTED_QUERY_NOT_IN_LIST, before the upstream or a parse', async () => {
    const token = await login(only);
    only.emulator.resetStats();
    // Not even GraphQL: refused on the raw request, so the parser never sees it.
    for (const query of ['{ loanTypes(first: 1) { totalCount } }', 'not graphql {']) {
      expect(await post(only, { query }, token)).toEqual({
        status: 400,
        body: refused('PERSISTED_QUERY_NOT_IN_LIST'),
      });
    }
    expect(Object.values(only.upstreamCalls()).every((calls) => calls === 0)).toBe(true);
  });

  it('should refuse a hash no manifest holds, sent alone or with its text', async () => {
    const text = '{ loanTypes(first: 2) { totalCount } }';
    const hash = idOf(text).slice('sha256:'.length);
    const persistedQuery = { version: 1, sha256Hash: hash };
    expect(await post(only, { extensions: { persistedQuery } })).toEqual({
      status: 400,
      body: refused('PERSISTED_QUERY_NOT_FOUND'),
    });
    expect(await post(only, { query: text, extensions: { persistedQuery } })).toEqual({
      status: 400,
      body: refused('PERSISTED_QUERY_NOT_IN_LIST'),
    });
  });

  it("should log the refusal's code as the request's outcome", async () => {
    await post(only, { query: '{ me { expiresAt } }' });
    const lines = logLines.map((line) => JSON.parse(line) as { msg?: string; outcome?: string });
    expect(lines.filter((line) => line.msg === 'graphql request').at(-1)?.outcome).toBe(
      'PERSISTED_QUERY_NOT_IN_LIST',
    );
  });
});
