/**
 * Eight loops posting distinct small documents padded with a 95 KB comment
 * (`{"query":"#xxxx…\nquery Q<i> { __typename }"}`) killed a production gateway (256 MiB heap) in about
 * four seconds: Apollo's document cache counted each parsed document by its JSON (510 bytes) while it kept
 * the 95 KB source. Against the real command with `npm start`'s heap settings, the flood is now refused at
 * the edge (413 `DOCUMENT_TOO_LARGE`, naming `MAX_DOCUMENT_BYTES`), comment-only padding under that size
 * is refused by `MAX_COMMENT_BYTES`, the process lives under a documented peak RSS, and another user is
 * served meanwhile. A second gateway with both limits raised out of the way shows that the byte-sized
 * document cache alone keeps the heap bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusBytes } from '../../support/proc-stats.ts';
import { LOAN_TYPES, loginDemo, postGraphql } from '../support/post-graphql.ts';
import { startProductionGateway, type ProductionGateway } from '../support/production-gateway.ts';
import { MiB } from '../support/mib.ts';

const LOOPS = 8;
/** The documented peak (README, "Protecting the upstream and the other tenants"): RSS under 320 MiB. */
const PEAK_RSS_BYTES = 320 * MiB;
const PAD = `#${'x'.repeat(95_000)}\n`;

interface Tally {
  sent: number;
  byAnswer: Map<string, number>;
}

/** `LOOPS` loops posting `total` distinct documents made by `documentFor`; counts the answers by status and code. */
async function flood(url: string, total: number, documentFor: (i: number) => string): Promise<Tally> {
  const tally: Tally = { sent: 0, byAnswer: new Map() };
  const loop = async () => {
    while (tally.sent < total) {
      const i = tally.sent++;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: documentFor(i) }),
      });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      const key = `${response.status} ${body.errors?.[0]?.extensions?.code ?? 'ok'}`;
      tally.byAnswer.set(key, (tally.byAnswer.get(key) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
  return tally;
}

/** Reads with a session while `during` runs; answers every read's status and error codes. */
async function readsDuring(gateway: ProductionGateway, during: Promise<unknown>): Promise<string[]> {
  const token = await loginDemo(gateway.graphqlUrl);
  const outcomes: string[] = [];
  const flood = { over: false };
  void during.finally(() => {
    flood.over = true;
  });
  while (!flood.over) {
    const answer = await postGraphql(
      gateway.graphqlUrl,
      LOAN_TYPES,
      {},
      { authorization: `Bearer ${token}` },
    );
    outcomes.push(
      `${answer.status} ${(answer.errors ?? []).map((error) => error.extensions?.code).join(',')}`,
    );
  }
  return outcomes;
}

describe('with the default limits', () => {
  let gateway: ProductionGateway;
  beforeAll(async () => {
    gateway = await startProductionGateway();
  });
  afterAll(() => gateway.stop());

  it('should refuse 3,000 distinct 95 KB padded documents with 413 DOCUMENT_TOO_LARGE, live, and serve another user', async () => {
    const attack = flood(gateway.graphqlUrl, 3_000, (i) => `${PAD}query Q${i} { __typename }`);
    const [tally, reads] = await Promise.all([attack, readsDuring(gateway, attack)]);

    expect(Object.fromEntries(tally.byAnswer)).toEqual({ '413 DOCUMENT_TOO_LARGE': 3_000 });
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads)).toEqual(new Set(['200 ']));
    expect(gateway.process.exited).toBeUndefined();
    expect(statusBytes(gateway.process.pid, 'VmHWM')).toBeLessThan(PEAK_RSS_BYTES);
  });

  it('should name the limit in the answer', async () => {
    const answer = await postGraphql(gateway.graphqlUrl, `${PAD}query Q { __typename }`);
    expect(answer.status).toBe(413);
    expect(answer.errors?.[0]?.extensions).toEqual({
      code: 'DOCUMENT_TOO_LARGE',
      limit: 'MAX_DOCUMENT_BYTES',
      max: 32_768,
      blame: 'caller',
    });
  });

  it('should refuse comment padding within MAX_DOCUMENT_BYTES with 400 COMMENTS_TOO_LARGE', async () => {
    // 10,000 one-character comments: 20 KB of text, about 900 KB of parsed tokens.
    const tally = await flood(
      gateway.graphqlUrl,
      400,
      (i) => `${'#\n'.repeat(10_000)}query Q${i} { __typename }`,
    );
    expect(Object.fromEntries(tally.byAnswer)).toEqual({ '400 COMMENTS_TOO_LARGE': 400 });
    expect(gateway.process.exited).toBeUndefined();
  });
});

describe('with both text limits raised out of the way', () => {
  let gateway: ProductionGateway;
  beforeAll(async () => {
    gateway = await startProductionGateway({ MAX_DOCUMENT_BYTES: '100000', MAX_COMMENT_BYTES: '100000' });
  });
  afterAll(() => gateway.stop());

  it('should keep the heap bounded by DOCUMENT_CACHE_BYTES: 2,500 distinct padded documents all answered', async () => {
    // Before the cache was sized by bytes, this died of heap exhaustion after about 1,700 documents.
    const attack = flood(gateway.graphqlUrl, 2_500, (i) => `${PAD}query Q${i} { __typename }`);
    const [tally, reads] = await Promise.all([attack, readsDuring(gateway, attack)]);

    expect(Object.fromEntries(tally.byAnswer)).toEqual({ '200 ok': 2_500 });
    expect(new Set(reads)).toEqual(new Set(['200 ']));
    expect(gateway.process.exited).toBeUndefined();
    expect(statusBytes(gateway.process.pid, 'VmHWM')).toBeLessThan(PEAK_RSS_BYTES);
  });
});
