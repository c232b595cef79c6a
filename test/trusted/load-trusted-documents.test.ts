/** Loading persisted-document manifests, and the settings around them: mistakes stop the start, by name. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { loadTrustedDocuments } from '../../src/trusted/trusted-documents.ts';

let dir: string;
const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trusted-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadTrustedDocuments', () => {
  it('should find documents by id, by hex sha256 hash and by text, across files', async () => {
    const a = await file('a.json', JSON.stringify({ 'sha256:abc': '{ a }' }));
    const b = await file('b.json', JSON.stringify({ custom: '{ b }', 'sha256:abc': '{ a }' }));
    const documents = loadTrustedDocuments([a, b]);
    expect(documents.size).toBe(2);
    expect(documents.byId('sha256:abc')).toBe('{ a }');
    expect(documents.bySha256('abc')).toBe('{ a }');
    expect(documents.byId('custom')).toBe('{ b }');
    expect(documents.has('{ b }')).toBe(true);
    expect(documents.has('{ c }')).toBe(false);
  });

  it('should stop the start naming the file when it is missing, not JSON, or not a manifest', async () => {
    const notJson = await file('bad.json', '{ nope');
    const notManifest = await file('list.json', JSON.stringify(['{ a }']));
    const missing = join(dir, 'missing.json');
    expect(() => loadTrustedDocuments([missing])).toThrow(
      new ConfigError(`Invalid setting TRUSTED_DOCUMENTS: ${missing}: cannot be read (ENOENT)`),
    );
    expect(() => loadTrustedDocuments([notJson])).toThrow(`${notJson}: not valid JSON`);
    expect(() => loadTrustedDocuments([notManifest])).toThrow(`${notManifest}: must be a JSON object`);
  });

  it('should refuse one id registered with two texts', async () => {
    const a = await file('one.json', JSON.stringify({ x: '{ a }' }));
    const b = await file('two.json', JSON.stringify({ x: '{ b }' }));
    expect(() => loadTrustedDocuments([a, b])).toThrow(
      `${b}: id x is already registered with another document`,
    );
  });
});

describe('the trusted-documents settings', () => {
  it('should read a comma-separated list of manifests', () => {
    const config = loadConfig({ TRUSTED_DOCUMENTS: 'a.json, b.json', TRUSTED_DOCUMENTS_ONLY: 'true' });
    expect(config.trustedDocuments).toEqual({ files: ['a.json', 'b.json'], only: true });
  });

  it('should refuse TRUSTED_DOCUMENTS_ONLY without a manifest', () => {
    expect(() => loadConfig({ TRUSTED_DOCUMENTS_ONLY: 'true' })).toThrow(
      'Invalid setting TRUSTED_DOCUMENTS_ONLY: needs TRUSTED_DOCUMENTS',
    );
  });
});
