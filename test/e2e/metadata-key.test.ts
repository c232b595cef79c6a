/**
 * An upstream that answers metadata under another key (`{"status":"success","metadata":{…}}`,
 * `EMULATOR_METADATA_KEY=metadata`), end to end through a real GraphQL client: with
 * `UPSTREAM_METADATA_KEY=metadata` every metadata field is read; without it each is
 * `UPSTREAM_DIALECT_MISMATCH` naming the key found and the setting, never a silent `null`, and never counted
 * as the upstream's ill health.
 */
import { describe, expect, it } from 'vitest';
import { dialectMismatch } from '../support/dialect-mismatch.ts';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import { useDemoSession } from '../support/list-objects.ts';
import { MetadataDocument, ObjectsDocument } from '../support/operations.ts';

const LOAN = 'com.example.LoanType';

/** One loan's metadata, read through the real client as the demo user: what every test here asks. */
const readMetadata = (h: Harness, token: string, id: string) =>
  h.client(token).query({ query: MetadataDocument, variables: { objectId: id } });

describe('with UPSTREAM_METADATA_KEY=metadata (the embedded emulator follows it)', () => {
  const h = useHarness({ env: { UPSTREAM_METADATA_KEY: 'metadata' }, listen: false });
  const session = useDemoSession(h, LOAN);

  it('should read the payload under that key', async () => {
    const [id = ''] = session.ids;
    const result = await readMetadata(h, session.token, id);
    expect(result.error).toBeUndefined();
    expect(result.data?.metadata?.data).toMatchObject({ objectId: id, objectName: LOAN, category: 'none' });
  });
});

describe('without the setting', () => {
  // A breaker that would open after 5 failed calls of one user, were the mismatches counted as ill health.
  const h = useHarness({
    emulator: { metadataKey: 'metadata' },
    env: { UPSTREAM_BREAKER_MIN_CALLS: '5', UPSTREAM_BREAKER_MIN_SOURCES: '1' },
    listen: false,
  });
  const session = useDemoSession(h, LOAN);

  it('should answer UPSTREAM_DIALECT_MISMATCH naming the key found and the setting, not null', async () => {
    const [id = ''] = session.ids;
    const result = await readMetadata(h, session.token, id);
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject(dialectMismatch('metadata_key', 'UPSTREAM_METADATA_KEY'));
    expect(error.message).toContain('set UPSTREAM_METADATA_KEY=metadata');
  });

  it('should not take the mismatches for ill health: reads go on after many of them', async () => {
    const codes: unknown[] = [];
    for (const id of session.ids.slice(0, 15)) {
      const result = await readMetadata(h, session.token, id);
      codes.push(...errorCodes(result.error));
    }
    const page = await h
      .client(session.token)
      .query({ query: ObjectsDocument, variables: { objectName: LOAN, first: 5 } });
    expect(page.error).toBeUndefined();
    expect(page.data?.objects.nodes).toHaveLength(5);
    expect(new Set(codes)).toEqual(new Set(['UPSTREAM_DIALECT_MISMATCH']));
  });
});
