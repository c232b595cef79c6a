/**
 * The trusted (persisted) documents: manifests written by GraphQL Code Generator's client preset with
 * `persistedDocuments: true` (a JSON object, hash → document text), loaded once at start. A front-end then
 * sends a document's id instead of its text, and with `TRUSTED_DOCUMENTS_ONLY=true` nothing else runs.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config/config-error.ts';

/** The registered documents, by id and by text. */
export interface TrustedDocuments {
  /** How many documents the manifests hold. */
  readonly size: number;
  /** The text of a document id (`sha256:<hex>` as the client preset writes it, or any other key). */
  byId(id: string): string | undefined;
  /** The text registered for an Apollo APQ `sha256Hash` (hex, with or without the `sha256:` prefix). */
  bySha256(hash: string): string | undefined;
  /** Whether this exact text is a registered document. */
  has(text: string): boolean;
}

const manifestSchema = z.record(z.string().min(1), z.string().min(1));

/**
 * Reads the manifests (later files may repeat an id only with the same text).
 * @throws ConfigError naming `TRUSTED_DOCUMENTS`, the file and the problem.
 */
export function loadTrustedDocuments(files: readonly string[]): TrustedDocuments {
  const texts = new Map<string, string>();
  for (const file of files) {
    const fail = (problem: string): never => {
      throw new ConfigError(`Invalid setting TRUSTED_DOCUMENTS: ${file}: ${problem}`);
    };
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      fail(code === undefined ? 'not valid JSON' : `cannot be read (${code})`);
    }
    const parsed = manifestSchema.safeParse(raw);
    if (!parsed.success) {
      fail('must be a JSON object mapping document ids to document texts (GraphQL Code Generator writes it)');
      continue;
    }
    for (const [id, text] of Object.entries(parsed.data)) {
      const seen = texts.get(id);
      if (seen !== undefined && seen !== text) fail(`id ${id} is already registered with another document`);
      texts.set(id, text);
    }
  }
  const registered = new Set(texts.values());
  return {
    size: texts.size,
    byId: (id) => texts.get(id),
    bySha256: (hash) => texts.get(hash.startsWith('sha256:') ? hash : `sha256:${hash}`) ?? texts.get(hash),
    has: (text) => registered.has(text),
  };
}
