/**
 * `FEDERATION=true` with `TRUSTED_DOCUMENTS_ONLY=true` never starts: the router's generated queries
 * (`_service`, `_entities`, query plans) are in no manifest, so such a subgraph would start and then refuse
 * every router query. Trusted documents belong at the router. With manifests but not "only", the subgraph
 * serves the router and the manifests' ids alike.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { childGroupOptions, recordChild } from '../../support/child-registry.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const ME = 'query Me { me { username } }';

function manifest(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'federation-trusted-')), 'persisted-documents.json');
  writeFileSync(file, JSON.stringify({ 'sha256:me': ME }));
  return file;
}

const REFUSAL =
  /^Invalid setting TRUSTED_DOCUMENTS_ONLY: cannot be combined with FEDERATION=true .*enforce trusted documents at the router/;

describe('FEDERATION with TRUSTED_DOCUMENTS_ONLY', () => {
  it('should refuse the settings, naming both and where trusted documents belong', () => {
    const env = { FEDERATION: 'true', TRUSTED_DOCUMENTS: manifest(), TRUSTED_DOCUMENTS_ONLY: 'true' };
    expect(() => loadConfig(env)).toThrow(REFUSAL);
    expect(() => loadConfig({ ...env, FEDERATION: 'false' })).not.toThrow();
  });

  it('should make the command exit 1 with that one line instead of starting and refusing the router', async () => {
    const child = recordChild(
      spawn(process.execPath, [MAIN], {
        ...childGroupOptions(),
        env: {
          PATH: process.env.PATH ?? '',
          LOG_LEVEL: 'silent',
          HOST: '127.0.0.1',
          PORT: '0',
          FEDERATION: 'true',
          TRUSTED_DOCUMENTS: manifest(),
          TRUSTED_DOCUMENTS_ONLY: 'true',
          OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.trim()).toMatch(REFUSAL);
    expect(stdout).not.toContain('GraphQL endpoint');
  });
});

describe('FEDERATION with TRUSTED_DOCUMENTS (not only)', () => {
  const h = useHarness({ env: { FEDERATION: 'true', TRUSTED_DOCUMENTS: manifest() }, listen: false });

  it("should answer the router's _service and _entities queries", async () => {
    const token = await h.login();
    const service = await h.post('{ _service { sdl } }');
    expect(service.status).toBe(200);
    expect(JSON.stringify(service.data)).toContain('@key');
    const entities = await h.post(
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Customer { id } } }',
      { r: [{ __typename: 'Customer', id: 'no-such-customer' }] },
      { authorization: `Bearer ${token}` },
    );
    expect(entities.errors).toBeUndefined();
    expect(entities.data).toEqual({ _entities: [null] });
  });

  it('should still run a registered document by its id', async () => {
    const response = await h.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documentId: 'sha256:me' }),
    });
    expect(await response.json()).toEqual({ data: { me: null } });
  });
});
