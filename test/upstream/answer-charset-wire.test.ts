/**
 * The client over a real socket: an answer is decoded once, whole, by the charset its Content-Type names, so a
 * character split across two chunks (or two TCP segments) arrives whole, and a Latin-1 answer reads right.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS, clientAt, failureOf } from '../support/client-for.ts';
import { listenOnLoopback, type Listening } from '../support/servers/listen-on-loopback.ts';
import type { UpstreamClient } from '../../src/upstream/client/types.ts';

const TEXT = 'Société Générale, Grüße aus Köln, Ελληνικά 😀';

/** Answers getAll with a record holding `text`, encoded and labelled per path, in chunks of a few bytes. */
function answer(res: ServerResponse, path: string, callback: string): void {
  const json = JSON.stringify({
    status: 'success',
    totalCount: 1,
    data: [{ _id: 'r1', text: path.includes('latin') ? 'Société Générale' : TEXT }],
  });
  const body = `${callback}(${json});`;
  const [contentType, bytes] = path.startsWith('/latin')
    ? ['application/javascript;charset=ISO-8859-1', Buffer.from(body, 'latin1')]
    : path.startsWith('/unlabelled-latin')
      ? ['application/javascript', Buffer.from(body, 'latin1')]
      : ['application/javascript; charset=UTF-8', Buffer.from(body, 'utf8')];
  res.writeHead(200, { 'content-type': contentType });
  // Three bytes at a time, each written after the last left: every multi-byte character is cut somewhere.
  let at = 0;
  const next = (): void => {
    if (at >= bytes.length) {
      res.end();
      return;
    }
    const chunk = bytes.subarray(at, at + 3);
    at += 3;
    res.write(chunk, () => setImmediate(next));
  };
  next();
}

let server: Listening;
const clients: UpstreamClient[] = [];
beforeAll(async () => {
  server = await listenOnLoopback(
    createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      answer(res, url.pathname, url.searchParams.get('callback') ?? 'cb');
    }),
  );
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

function client(prefix: string, answerCharset: 'utf-8' | 'iso-8859-1' = 'utf-8'): UpstreamClient {
  const created = clientAt(`${server.url}/${prefix}`, { answerCharset });
  clients.push(created);
  return created;
}

describe('answers over the wire', () => {
  it('should read UTF-8 characters cut across chunks whole', async () => {
    const page = await client('utf8').getAll(CREDENTIALS, 'com.example.Order', [], 20, 0);
    expect(page.records[0]?.text).toBe(TEXT);
  });

  it('should read a Latin-1 answer by its label', async () => {
    const page = await client('latin').getAll(CREDENTIALS, 'com.example.Order', [], 20, 0);
    expect(page.records[0]?.text).toBe('Société Générale');
  });

  it('should read an unlabelled Latin-1 answer with UPSTREAM_ANSWER_CHARSET=iso-8859-1, and refuse it by name without', async () => {
    const page = await client('unlabelled-latin', 'iso-8859-1').getAll(
      CREDENTIALS,
      'com.example.Order',
      [],
      20,
      0,
    );
    expect(page.records[0]?.text).toBe('Société Générale');
    const error = await failureOf(
      client('unlabelled-latin').getAll(CREDENTIALS, 'com.example.Order', [], 20, 0),
    );
    expect(error).toMatchObject({
      kind: 'dialect_mismatch',
      blame: 'gateway',
      assumption: { name: 'answer_charset', setting: 'UPSTREAM_ANSWER_CHARSET' },
    });
  });
});
