/**
 * Apollo's parsed-document cache, sized by the heap its documents really take.
 *
 * Apollo Server 5's default `documentStore` is an `InMemoryLRUCache` of 30 MiB whose entries are sized by
 * `JSON.stringify(document)`. That string holds neither the source text a document keeps
 * (`document.loc.source.body`) nor its token list (comments included): a 95 KB comment-padded
 * `query Q1 { __typename }` was counted as 510 bytes while keeping 98 KB, so about 60,000 such documents
 * fitted "30 MiB", and 1,700 distinct ones exhausted a 256 MiB heap. Measured on Node 24 with
 * graphql-js 16 (`--expose-gc`, 300 retained documents of each shape):
 *
 * | document                            | heap kept | JSON | source | tokens |
 * | ----------------------------------- | --------- | ---- | ------ | ------ |
 * | 95 KB comment, one field            | 98 KB     | 0.5 KB | 95 KB | 8     |
 * | 60 aliased fields, 973 tokens       | 275 KB    | 66 KB  | 4.5 KB | 973  |
 * | 10,000 one-character comments       | 903 KB    | 0.5 KB | 20 KB  | 10,007 |
 *
 * {@link estimateDocumentBytes} over-counts each of them a little (98, 365 and 1,023 KB), so the cache's
 * total is a bound on the heap it holds, whatever the documents' shape.
 */
import type { DocumentStore } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/** Heap of one token object and its share of the AST node around it (measured: about 90 bytes). */
const BYTES_PER_TOKEN = 100;
/** Heap of the AST per byte of its JSON form (measured: about 3.5 with locations). */
const BYTES_PER_JSON_BYTE = 4;

/** The heap one parsed document keeps: its source text, its token list and its tree. */
export function estimateDocumentBytes(document: DocumentNode): number {
  const source = document.loc?.source.body ?? '';
  let tokens = 0;
  for (let token = document.loc?.startToken ?? null; token !== null; token = token.next) tokens++;
  // UTF-8 is never shorter than V8's own one- or two-byte representation of the same text.
  return (
    Buffer.byteLength(source) +
    tokens * BYTES_PER_TOKEN +
    JSON.stringify(document).length * BYTES_PER_JSON_BYTE
  );
}

/**
 * A byte-bounded LRU in Apollo's `KeyValueCache` shape; an entry larger than a tenth of the total is not
 * kept (it would evict many others for one document).
 */
class ByteSizedCache<V extends object | string> {
  readonly #entries: LRUCache<string, V>;

  constructor(maxBytes: number, sizeOf: (value: V) => number) {
    this.#entries = new LRUCache<string, V>({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 10)),
      sizeCalculation: (value) => Math.max(1, sizeOf(value)),
    });
  }

  get(key: string): Promise<V | undefined> {
    return Promise.resolve(this.#entries.get(key));
  }

  set(key: string, value: V): Promise<void> {
    this.#entries.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<boolean> {
    return Promise.resolve(this.#entries.delete(key));
  }

  /** The bytes held now (tests, metrics). */
  get heldBytes(): number {
    return this.#entries.calculatedSize;
  }
}

/** A parsed-document cache of at most `maxBytes` (`DOCUMENT_CACHE_BYTES`); `null` (no cache) for `0`. */
export function createDocumentStore(maxBytes: number): (DocumentStore & { heldBytes: number }) | null {
  if (maxBytes === 0) return null;
  return new ByteSizedCache<DocumentNode>(maxBytes, estimateDocumentBytes);
}

/**
 * The cache of automatic persisted queries (document texts by hash), of at most `maxBytes`; a text is
 * counted at two bytes per character, V8's storage of any text beyond Latin-1. Apollo's TTL is not kept: a
 * text leaves when the cache needs its room, and a client whose hash is gone sends the text again.
 */
export function createPersistedQueryCache(maxBytes: number): ByteSizedCache<string> {
  return new ByteSizedCache<string>(Math.max(1, maxBytes), (text) => text.length * 2);
}
