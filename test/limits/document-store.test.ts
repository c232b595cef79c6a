/**
 * The parsed-document cache counts what a document keeps (its source text and its tokens, comments
 * included), not its JSON, so its total bounds the heap it holds whatever the documents look like.
 */
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  createDocumentStore,
  createPersistedQueryCache,
  estimateDocumentBytes,
} from '../../src/limits/document-store.ts';

const padded = (i: number) => parse(`#${'x'.repeat(95_000)}\nquery Q${i} { __typename }`);

describe('estimateDocumentBytes', () => {
  it('should count the source a padded document keeps, which its JSON omits', () => {
    const document = padded(1);
    expect(JSON.stringify(document).length).toBeLessThan(1_000);
    expect(estimateDocumentBytes(document)).toBeGreaterThan(95_000);
  });

  it('should count comment tokens, which the token limit does not', () => {
    const plain = estimateDocumentBytes(parse('query Q { __typename }'));
    const commented = estimateDocumentBytes(parse(`${'#\n'.repeat(1_000)}query Q { __typename }`));
    // About 90 bytes of heap per comment token (measured), counted as 100.
    expect(commented - plain).toBeGreaterThanOrEqual(1_000 * 100);
  });

  it('should count multi-byte text by its UTF-8 length', () => {
    const ascii = estimateDocumentBytes(parse(`# ${'a'.repeat(1_000)}\n{ __typename }`));
    const wide = estimateDocumentBytes(parse(`# ${'é'.repeat(1_000)}\n{ __typename }`));
    expect(wide - ascii).toBe(1_000);
  });
});

describe('createDocumentStore', () => {
  it('should hold at most its bytes: 100 padded documents in 1 MiB keep the last ten or so', async () => {
    const store = createDocumentStore(1024 * 1024);
    if (store === null) throw new Error('expected a store');
    for (let i = 0; i < 100; i++) await store.set(`q${i}`, padded(i));
    expect(store.heldBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(await store.get('q99')).toBeDefined();
    expect(await store.get('q0')).toBeUndefined();
  });

  it('should not keep a document over a tenth of the total', async () => {
    const store = createDocumentStore(500_000);
    await store?.set('big', padded(1));
    expect(await store?.get('big')).toBeUndefined();
  });

  it('should be off (no cache at all) at 0', () => {
    expect(createDocumentStore(0)).toBeNull();
  });
});

describe('createPersistedQueryCache', () => {
  it('should count texts at two bytes a character and hold at most its bytes', async () => {
    const cache = createPersistedQueryCache(100_000);
    for (let i = 0; i < 100; i++) await cache.set(`h${i}`, `query Q${i} { __typename }`.padEnd(4_000, ' '));
    // 8,000 bytes a text: twelve fit.
    expect(cache.heldBytes).toBeLessThanOrEqual(100_000);
    expect(cache.heldBytes).toBeGreaterThan(80_000);
    expect(await cache.get('h99')).toMatch(/^query Q99/);
    expect(await cache.get('h80')).toBeUndefined();
  });
});
