/**
 * The check's write probes against the emulator in each write dialect: each probe on its own recommends the
 * setting, and the gateway on that advice serves the front-end's write journey right against the same
 * upstream.
 */
import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.ts';
import { SaveDocument, UpdateDocument } from '../support/operations.ts';
import { runUpstreamCheck, verdictOf } from './check-command.ts';
import { expectRecommended } from './expect-recommended.ts';
import { useCheckEmulators, detailOf } from './check-emulators.ts';

const LOAN = 'com.example.LoanType';
const WRITES = ['--object-name', 'com.example.Order', '--allow-writes', '--write-object-name', LOAN];

const emulator = useCheckEmulators();

describe('npm run upstream:check --allow-writes, in each write dialect', () => {
  it.each([
    ['savedObjectId', 'as-assumed', 1],
    ['data._id', 'differs', 2],
    ['data', 'differs', 3],
  ] as const)(
    'should find the save answer id at %s and write UPSTREAM_SAVE_ID_AT',
    async (saveIdAt, verdict, creates) => {
      const upstream = await emulator({ saveIdAt });
      const run = await runUpstreamCheck({ url: upstream.url }, WRITES);
      expect(run.code).toBe(0);
      expect(run.env.UPSTREAM_SAVE_ID_AT).toBe(saveIdAt);
      expect(verdictOf(run, 'save answer id')).toBe(verdict);
      // The other probes still ran, each on its own.
      expect(verdictOf(run, 'save with _id')).toBe('as-assumed');
      expect(verdictOf(run, 'update fields')).toBe('as-assumed');
      // One save per place tried for the id (in the order savedObjectId, data._id, data), one with _id, one
      // with a bad token, and the text round trip's two (the gateway's body, then raw UTF-8 bytes).
      expect(upstream.stats().save).toBe(creates + 2 + 2);
    },
  );

  it('should find that a save with _id and one field replaces the object, and write UPSTREAM_SAVE_WITH_ID=replaces', async () => {
    const upstream = await emulator({ saveWithId: 'replaces' });
    const run = await runUpstreamCheck({ url: upstream.url }, WRITES);
    expectRecommended(run, 'save with _id', 'UPSTREAM_SAVE_WITH_ID=replaces', 'the others are gone');
  });

  it('should find that update takes one parameter per field after data=JSON made a field "data", and write UPSTREAM_UPDATE_FIELDS=params', async () => {
    const upstream = await emulator({ updateFields: 'params' });
    const run = await runUpstreamCheck({ url: upstream.url }, WRITES);
    expectRecommended(run, 'update fields', 'UPSTREAM_UPDATE_FIELDS=params', 'made a field "data" of it');
    // data=JSON, then one parameter per field, then the bad token's.
    expect(upstream.stats().update).toBe(3);
  });

  it('should say as assumed when the settings already name the dialect', async () => {
    const upstream = await emulator({ saveIdAt: 'data', saveWithId: 'replaces', updateFields: 'params' });
    const env = {
      UPSTREAM_SAVE_ID_AT: 'data',
      UPSTREAM_SAVE_WITH_ID: 'replaces',
      UPSTREAM_UPDATE_FIELDS: 'params',
    };
    const run = await runUpstreamCheck({ url: upstream.url, env }, WRITES);
    expect(run.code).toBe(0);
    for (const topic of ['save answer id', 'save with _id', 'update fields']) {
      expect(verdictOf(run, topic)).toBe('as-assumed');
    }
    expect(run.env).toMatchObject(env);
  });

  it('should recommend, with every write dialect on at once, the settings on which the gateway writes right', async () => {
    const upstream = await emulator({ saveIdAt: 'data._id', saveWithId: 'replaces', updateFields: 'params' });
    const run = await runUpstreamCheck({ url: upstream.url }, WRITES);
    expect(run.code).toBe(0);
    const { UPSTREAM_SAVE_ID_AT, UPSTREAM_SAVE_WITH_ID, UPSTREAM_UPDATE_FIELDS } = run.env;
    expect({ UPSTREAM_SAVE_ID_AT, UPSTREAM_SAVE_WITH_ID, UPSTREAM_UPDATE_FIELDS }).toEqual({
      UPSTREAM_SAVE_ID_AT: 'data._id',
      UPSTREAM_SAVE_WITH_ID: 'replaces',
      UPSTREAM_UPDATE_FIELDS: 'params',
    });

    const h = await startHarness({ upstream, env: run.env });
    try {
      const client = h.client(await h.login());
      const created = await client.mutate({
        mutation: SaveDocument,
        variables: { objectName: LOAN, data: { loanType: 'Advised', description: 'one', rate: 4 } },
      });
      const id = created.data!.saveObject.id;
      const partial = await client.mutate({
        mutation: SaveDocument,
        variables: { objectName: LOAN, data: { _id: id, description: 'two' } },
      });
      expect(partial.data!.saveObject.object?.data).toEqual({
        _id: id,
        loanType: 'Advised',
        description: 'two',
        rate: 4,
      });
      const updated = await client.mutate({
        mutation: UpdateDocument,
        variables: { id, objectName: LOAN, data: { description: 'three' } },
      });
      expect(updated.error).toBeUndefined();
      expect(updated.data!.updateObject.object?.data).toMatchObject({ description: 'three', rate: 4 });
    } finally {
      await h.close();
    }
  });
});

describe('npm run upstream:check --allow-writes, truthfully', () => {
  it('should write to the scratch type only, whatever it reads and probes', async () => {
    // Every dialect that makes it write more (each save-id place, both update forms, replaces) at once.
    const upstream = await emulator({ saveIdAt: 'data', saveWithId: 'replaces', updateFields: 'params' });
    const run = await runUpstreamCheck({ url: upstream.url }, WRITES);
    expect(run.code).toBe(0);
    const written = upstream.writesByObjectName();
    expect(Object.keys(written)).toEqual([LOAN]);
    expect(written[LOAN]).toBeGreaterThanOrEqual(4);
  });

  it('should say "reads lag writes" with UPSTREAM_WRITE_READ_BACK_MS on a lagging replica, never a charset or save-id problem', async () => {
    const upstream = await emulator({ readLagMillis: 1500 });
    const run = await runUpstreamCheck({ url: upstream.url }, WRITES);
    const findings = run.report?.findings ?? [];
    expect(findings.filter((f) => f.verdict === 'cannot-serve')).toEqual([]);
    for (const topic of ['save answer id', 'save with _id', 'update fields', 'Latin-1 text']) {
      expect(verdictOf(run, topic), topic).toBe('as-assumed');
    }
    expect(verdictOf(run, 'reads after writes')).toBe('differs');
    expect(detailOf(run, 'reads after writes')).toContain('reads lag writes');
    expect(Number(run.env.UPSTREAM_WRITE_READ_BACK_MS)).toBeGreaterThanOrEqual(2000);
    expect(run.code).toBe(0);
  });
});
