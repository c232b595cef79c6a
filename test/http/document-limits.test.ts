/**
 * `MAX_DOCUMENT_BYTES` and `MAX_COMMENT_BYTES` at the HTTP edge, through the real gateway (inject): both
 * ways a document is sent (POST body, GET parameter) are measured before parsing, answered with the limit's
 * code and setting, and a trusted document (the operator's text, named by `documentId`) is not measured.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/gateway-harness.ts';

/** 2,200 bytes: over the 2,048 the test sets, with one comment of 600 bytes. */
const LONG = `query Long { __typename ${'__typename '.repeat(200)}}`;
const COMMENTED = `# ${'c'.repeat(600)}\nquery Commented { __typename }`;

let dir: string;
let gateway: Harness;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'document-limits-'));
  const manifest = join(dir, 'persisted-documents.json');
  await writeFile(
    manifest,
    JSON.stringify({ [`sha256:${createHash('sha256').update(LONG).digest('hex')}`]: LONG }),
  );
  gateway = await startHarness({
    listen: false,
    env: { MAX_DOCUMENT_BYTES: '2048', MAX_COMMENT_BYTES: '512', TRUSTED_DOCUMENTS: manifest },
  });
});
afterAll(async () => {
  await gateway.close();
  await rm(dir, { recursive: true, force: true });
});

async function post(body: Record<string, unknown>) {
  const response = await gateway.fetch(gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('document limits', () => {
  it('should refuse a POSTed document over MAX_DOCUMENT_BYTES with 413, naming the limit', async () => {
    expect(await post({ query: LONG })).toEqual({
      status: 413,
      body: {
        errors: [
          {
            message: `The GraphQL document is ${LONG.length} bytes, over the 2048 this gateway accepts: send a smaller document.`,
            extensions: {
              code: 'DOCUMENT_TOO_LARGE',
              limit: 'MAX_DOCUMENT_BYTES',
              max: 2048,
              blame: 'caller',
            },
          },
        ],
      },
    });
  });

  it('should refuse a GET document over MAX_DOCUMENT_BYTES the same way', async () => {
    const url = `${gateway.graphqlUrl}?query=${encodeURIComponent(LONG)}`;
    const response = await gateway.fetch(url, {
      method: 'GET',
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(413);
    expect(JSON.stringify(await response.json())).toContain('"DOCUMENT_TOO_LARGE"');
  });

  it('should refuse comments over MAX_COMMENT_BYTES with 400, naming the limit', async () => {
    const answer = await post({ query: COMMENTED });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      errors: [
        { extensions: { code: 'COMMENTS_TOO_LARGE', limit: 'MAX_COMMENT_BYTES', max: 512, blame: 'caller' } },
      ],
    });
  });

  it('should count bytes, not characters', async () => {
    // 1,100 two-byte characters in a string argument: 2,238 bytes of a 1,138-character document.
    const answer = await post({ query: `query Wide { __typename(x: "${'é'.repeat(1_100)}") }` });
    expect(answer.status).toBe(413);
  });

  it('should run a trusted document longer than MAX_DOCUMENT_BYTES, which the caller names by id', async () => {
    const documentId = `sha256:${createHash('sha256').update(LONG).digest('hex')}`;
    expect(await post({ documentId })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });

  it('should parse a document within both limits as before', async () => {
    expect(await post({ query: '# a comment\nquery Short { __typename }' })).toEqual({
      status: 200,
      body: { data: { __typename: 'Query' } },
    });
  });
});
